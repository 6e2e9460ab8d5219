// The browser's own dialogs (confirm, beforeunload) a page opens: each is recorded and answered
// as the test last said (dismissed until told otherwise).
import type { Dialog, Page } from "@playwright/test";

export function dialogs(page: Page) {
  const seen: string[] = [];
  const messages: string[] = [];
  let accept = false;
  page.on("dialog", (d: Dialog) => {
    seen.push(d.type());
    messages.push(d.message());
    void (accept ? d.accept() : d.dismiss());
  });
  return { seen, messages, answer: (yes: boolean) => (accept = yes) };
}
