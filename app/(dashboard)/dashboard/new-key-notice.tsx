"use client";

import { useEffect, useRef, useState, type Ref } from "react";
import { useUnsavedChanges } from "@/app/components/use-unsaved-changes";
import { QuickStart, type QuickStartTarget } from "./quick-start";

export const LEAVE_UNCOPIED = "Your new key is shown only this once. Leave without copying it?";

interface NewKeyNoticeProps {
  value: string;
  name?: string;
  target?: QuickStartTarget;
  browser?: boolean;
  /** Until the key is copied, leaving the page (Back, a link, a reload) asks first. The key dialog asks for itself. */
  askBeforeLeaving?: boolean;
  /** Told once the key was copied: by its Copy button, by the person, or with the example holding it. */
  onCopied?: () => void;
  /** The Copy button, for a dialog to give it focus first: copying is the one thing to do here. */
  copyRef?: Ref<HTMLButtonElement>;
}

/** Shows a key value once, in full, with a copy button and (given the sheet) a first call to paste. */
export function NewKeyNotice({
  value,
  name,
  target,
  browser = false,
  askBeforeLeaving = false,
  onCopied,
  copyRef,
}: NewKeyNoticeProps) {
  // "refused": the browser gave no clipboard (an insecure page, a denied permission); the key is selectable.
  const [copied, setCopiedState] = useState<"no" | "yes" | "refused">("no");
  useUnsavedChanges(askBeforeLeaving && copied !== "yes", LEAVE_UNCOPIED);
  const setCopied = (state: "yes" | "refused") => {
    setCopiedState(state);
    if (state === "yes") onCopied?.();
  };

  return (
    // A copy the person makes themselves (the key selected, or the curl line holding it) counts as copied.
    <div
      role="status"
      data-testid="new-key"
      onCopy={() => setCopied("yes")}
      className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-700 dark:bg-amber-950"
    >
      <p className="font-medium text-amber-900 dark:text-amber-100">
        {name ? (
          <>
            Your API key <span data-testid="new-key-name">&ldquo;{name}&rdquo;</span>.
          </>
        ) : (
          "Your API key."
        )}{" "}
        Copy it now: it will not be shown again.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
        {/* Wrapped, never clipped: the whole key must be visible and selectable on a phone too. */}
        <code
          data-testid="new-key-value"
          className="min-w-0 flex-1 break-all rounded bg-white px-3 py-2 font-mono text-sm select-all dark:bg-slate-900"
        >
          {value}
        </code>
        <button
          type="button"
          ref={copyRef}
          data-testid="copy-key"
          onClick={() => {
            const clipboard = navigator.clipboard as Clipboard | undefined;
            if (!clipboard) return setCopied("refused");
            clipboard.writeText(value).then(
              () => setCopied("yes"),
              () => setCopied("refused"),
            );
          }}
          className="min-h-11 rounded-md bg-amber-700 px-3 py-2 text-sm font-medium text-white hover:bg-amber-800 sm:min-h-0"
        >
          {copied === "yes" ? "Copied" : "Copy"}
        </button>
      </div>
      {copied === "refused" && (
        <p role="alert" data-testid="copy-refused" className="text-sm text-amber-900 dark:text-amber-100">
          This browser did not let the page copy. Select the key above (a tap or a double click selects all of it) and
          copy it yourself.
        </p>
      )}
      {browser ? (
        <p className="text-sm text-amber-900 dark:text-amber-100" data-testid="new-key-browser">
          This is a browser key: it is safe to put in a web page&apos;s code. It only reads, only the tabs and columns
          you chose, and only from the origins you listed; each visitor has their own per-minute limit. Send it in the{" "}
          <code>X-API-Key</code> header with <code>fetch</code> from your page.
        </p>
      ) : (
        <p className="text-sm text-amber-900 dark:text-amber-100">
          Send it in the <code>X-API-Key</code> header of every request. Keep it on a server: anyone who sees it can use
          it.
        </p>
      )}
      {target && !browser && <QuickStart target={target} apiKey={value} onCopied={() => setCopied("yes")} />}
      {target?.tab && browser && (
        <pre
          tabIndex={0}
          data-testid="new-key-fetch"
          className="overflow-x-auto rounded bg-white p-3 font-mono text-xs dark:bg-slate-900 max-sm:whitespace-pre-wrap max-sm:break-all"
        >
          {`const res = await fetch("${target.baseUrl}/api/v1/${target.sheetId}/${encodeURIComponent(target.tab)}", {\n  headers: { "X-API-Key": "${value}" },\n});\nconst { data } = await res.json();`}
        </pre>
      )}
    </div>
  );
}

/**
 * A key handed over by a redirecting flow, in a cookie the server forgets as soon as the key is
 * shown. Always rendered, so the value survives the refresh that forgetting it causes.
 */
export function FlashKeyNotice({
  value,
  forget,
  target,
}: {
  value?: string;
  forget: () => Promise<void>;
  target?: QuickStartTarget;
}) {
  const [kept] = useState(value);
  // Once per mount. Forgetting refreshes the page, and the refresh hands this component a new
  // `forget` reference: depending on it would forget again, and again, in a loop of requests.
  const forgotten = useRef(false);
  const forgetOnce = useRef(forget);
  useEffect(() => {
    if (!kept || forgotten.current) return;
    forgotten.current = true;
    void forgetOnce.current();
  }, [kept]);
  return kept ? <NewKeyNotice value={kept} target={target} askBeforeLeaving /> : null;
}
