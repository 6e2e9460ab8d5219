// Work to do once the answer is on its way (metering, last-used stamps). Inside a Next.js
// request this is `after()`; elsewhere (scripts, tests calling handlers) it runs right away.
import { after } from "next/server";

export function afterResponse(task: () => void | Promise<void>): void {
  try {
    after(task);
  } catch {
    void Promise.resolve().then(task);
  }
}
