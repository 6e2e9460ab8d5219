"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { LocalTime } from "@/app/components/local-time";
import {
  addEndpointAction,
  removeEndpointAction,
  replayAction,
  resendAction,
  rotateSecretAction,
  sendTestEventAction,
  updateEndpointAction,
} from "./actions";

export interface LogView {
  id: string;
  state: string;
  attempts: number;
  status: number | null;
  latencyMs: number | null;
  error: string | null;
  response: string | null;
  requestHeaders: Record<string, string> | null;
  nextAttemptAt: string;
  createdAt: string;
  event: { id: string; type: string; tab: string; rowId: string | null; source: string; body: string };
}

export interface EndpointView {
  id: string;
  url: string;
  events: string[];
  tabs: string[];
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
  log: LogView[];
}

/** A delivery's state in the words of the page's counters (Waiting, Retrying, Given up). */
const stateLabel = (entry: LogView) =>
  entry.state === "delivered"
    ? "Delivered"
    : entry.state === "failed"
      ? "Given up"
      : entry.attempts > 0
        ? "Retrying"
        : "Waiting";

const when = (iso: string) => <LocalTime at={iso} shape="second" />;
const button =
  "rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-900";

function Choices({
  label,
  options,
  value,
  onChange,
  prefix,
}: {
  label: string;
  options: string[];
  value: string[];
  onChange: (v: string[]) => void;
  prefix: string;
}) {
  if (!options.length) return null;
  return (
    <fieldset className="min-w-0">
      <legend className="text-xs text-slate-500 dark:text-slate-400">{label} (none ticked: all)</legend>
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
        {options.map((o) => (
          <label key={o} className="flex min-w-0 items-center gap-1.5 text-sm break-all">
            <input
              type="checkbox"
              data-testid={`${prefix}-${o}`}
              checked={value.includes(o)}
              onChange={(e) => onChange(e.target.checked ? [...value, o] : value.filter((x) => x !== o))}
            />
            {o}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** `rotated`: it replaced an earlier secret, which signs beside it for a day. */
function SecretNotice({
  secret,
  onClose,
  rotated = false,
}: {
  secret: string;
  onClose: () => void;
  rotated?: boolean;
}) {
  return (
    <div
      role="status"
      className="space-y-2 rounded-md bg-emerald-50 p-3 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
      data-testid="endpoint-secret"
    >
      <p>
        The signing secret, shown this once. Keep it with your receiver: it verifies <code>webhook-signature</code>.
      </p>
      {rotated && (
        <p data-testid="rotation-grace">
          For the next 24 hours each delivery is signed with both the new and the old secret, so your receiver keeps
          accepting them until you update it.
        </p>
      )}
      <code className="block font-mono text-xs break-all" data-testid="endpoint-secret-value">
        {secret}
      </code>
      <div className="flex gap-2">
        <button type="button" className={button} onClick={() => void navigator.clipboard?.writeText(secret)}>
          Copy
        </button>
        <button type="button" className={button} onClick={onClose}>
          Done
        </button>
      </div>
    </div>
  );
}

export function AddEndpointForm({
  sheetId,
  tabs,
  eventTypes,
  full,
}: {
  sheetId: string;
  tabs: string[];
  eventTypes: string[];
  full: boolean;
}) {
  const router = useRouter();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>([]);
  const [chosenTabs, setTabs] = useState<string[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  if (secret) return <SecretNotice secret={secret} onClose={() => setSecret(null)} />;
  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        start(async () => {
          const result = await addEndpointAction({ sheetId, url, events, tabs: chosenTabs });
          if (!result.ok) return setError(result.error);
          setError(null);
          setUrl("");
          setSecret(result.data.secret);
          router.refresh();
        });
      }}
    >
      <label className="block text-sm">
        <span className="text-xs text-slate-500 dark:text-slate-400">URL</span>
        <input
          type="url"
          required
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://example.com/hooks/sheet"
          data-testid="endpoint-url"
          className="mt-1 block w-full min-w-0 rounded-md border border-slate-300 bg-transparent px-3 py-2 text-sm dark:border-slate-700"
        />
      </label>
      <Choices label="Events" options={eventTypes} value={events} onChange={setEvents} prefix="new-event" />
      <Choices label="Tabs" options={tabs} value={chosenTabs} onChange={setTabs} prefix="new-tab" />
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300" data-testid="endpoint-error">
          {error}
        </p>
      )}
      <button
        type="submit"
        disabled={pending || full}
        data-testid="add-endpoint"
        className="rounded-md bg-emerald-700 px-4 py-2 text-sm font-medium text-white hover:bg-emerald-800 disabled:opacity-60"
      >
        {pending ? "Adding…" : "Add endpoint"}
      </button>
    </form>
  );
}

function LogRow({ sheetId, endpointId, entry }: { sheetId: string; endpointId: string; entry: LogView }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [note, setNote] = useState<string | null>(null);
  const tone =
    entry.state === "delivered"
      ? "text-emerald-700 dark:text-emerald-300"
      : entry.state === "failed"
        ? "text-red-700 dark:text-red-300"
        : "text-amber-700 dark:text-amber-300";
  return (
    <li
      className="space-y-1 p-3 text-sm"
      data-testid="delivery"
      data-state={entry.state}
      data-event-type={entry.event.type}
    >
      <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0 break-words">
          <span className="font-mono">{entry.event.type}</span> · {entry.event.tab}
          {entry.event.rowId !== null && <> · row {entry.event.rowId}</>} ·{" "}
          <span className="text-slate-500 dark:text-slate-400">
            {entry.event.source === "api" ? "API write" : "edit in Sheets"}
          </span>
        </div>
        <div className="flex items-center gap-2">
          <span className={`font-medium ${tone}`} data-testid="delivery-state">
            {stateLabel(entry)}
          </span>
          <button
            type="button"
            className={button}
            disabled={pending}
            data-testid="resend"
            onClick={() =>
              start(async () => {
                const r = await resendAction({ sheetId, endpointId, deliveryId: entry.id });
                setNote(r.ok ? "Queued again." : r.error);
                router.refresh();
              })
            }
          >
            {pending ? "Resending…" : "Resend"}
          </button>
        </div>
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {when(entry.createdAt)} · {entry.attempts} attempt{entry.attempts === 1 ? "" : "s"}
        {entry.status !== null && <> · HTTP {entry.status}</>}
        {entry.latencyMs !== null && <> · {entry.latencyMs} ms</>}
        {entry.error && entry.state !== "delivered" && <> · {entry.error}</>}
        {entry.state === "pending" && entry.attempts > 0 && <> · next attempt {when(entry.nextAttemptAt)}</>}
      </p>
      {note && (
        <p className="text-xs text-slate-600 dark:text-slate-400" role="status">
          {note}
        </p>
      )}
      <details className="min-w-0">
        <summary className="cursor-pointer text-xs text-slate-500 dark:text-slate-400">Request and answer</summary>
        <div className="mt-2 space-y-2">
          <pre
            tabIndex={0}
            className="max-h-64 overflow-auto rounded bg-slate-50 p-2 text-xs whitespace-pre-wrap break-all dark:bg-slate-900"
          >
            {Object.entries(entry.requestHeaders ?? { "webhook-id": entry.event.id })
              .map(([k, v]) => `${k}: ${v}`)
              .join("\n")}
            {"\n\n"}
            {entry.event.body}
          </pre>
          <pre
            tabIndex={0}
            className="max-h-40 overflow-auto rounded bg-slate-50 p-2 text-xs whitespace-pre-wrap break-all dark:bg-slate-900"
            data-testid="delivery-response"
          >
            {entry.status !== null ? `HTTP ${entry.status}\n${entry.response ?? ""}` : (entry.error ?? "Not sent yet.")}
          </pre>
        </div>
      </details>
    </li>
  );
}

function toIso(local: string): string {
  return new Date(local).toISOString();
}

export function EndpointCard({
  sheetId,
  endpoint,
  tabs,
  eventTypes,
}: {
  sheetId: string;
  endpoint: EndpointView;
  tabs: string[];
  eventTypes: string[];
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [events, setEvents] = useState(endpoint.events);
  const [chosenTabs, setTabs] = useState(endpoint.tabs);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const run = (work: () => Promise<{ ok: boolean; error?: string }>, done: string) =>
    start(async () => {
      const r = await work();
      setMessage(r.ok ? done : (r.error ?? "Failed."));
      setConfirming(false);
      router.refresh();
    });
  const dirty = events.join() !== endpoint.events.join() || chosenTabs.join() !== endpoint.tabs.join();
  const save = (enabled: boolean) =>
    updateEndpointAction({ sheetId, endpointId: endpoint.id, url: endpoint.url, events, tabs: chosenTabs, enabled });

  return (
    <article
      className="space-y-4 rounded-lg border border-slate-200 p-4 sm:p-6 dark:border-slate-800"
      data-testid="endpoint"
    >
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="font-mono text-sm break-all" data-testid="endpoint-url-shown">
            {endpoint.url}
          </p>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {endpoint.enabled ? "Enabled" : "Disabled"} ·{" "}
            {endpoint.events.length ? endpoint.events.join(", ") : "all events"} ·{" "}
            {endpoint.tabs.length ? endpoint.tabs.join(", ") : "all tabs"}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={button}
            disabled={pending}
            data-testid="toggle-endpoint"
            onClick={() =>
              run(
                () => save(!endpoint.enabled),
                endpoint.enabled ? "Disabled." : "Enabled: waiting events are sent now.",
              )
            }
          >
            {endpoint.enabled ? "Disable" : "Enable"}
          </button>
          <button
            type="button"
            className={button}
            disabled={pending}
            data-testid="send-test-event"
            onClick={() =>
              start(async () => {
                setMessage(null);
                const r = await sendTestEventAction({ sheetId, endpointId: endpoint.id });
                if (!r.ok) return setMessage(r.error);
                const t = r.data;
                setMessage(
                  t.ok
                    ? `Test event delivered: HTTP ${t.status} in ${t.latencyMs} ms.`
                    : `Test event not delivered: ${t.error ?? "no answer"} (after ${t.latencyMs} ms). Nothing is retried; fix the receiver and send another.`,
                );
              })
            }
          >
            Send test event
          </button>
          <button
            type="button"
            className={button}
            disabled={pending}
            data-testid="rotate-secret"
            onClick={() => {
              // One tap on a phone must not break a live receiver's checks unasked.
              if (
                !window.confirm(
                  "Make a new signing secret for this endpoint? The old one keeps signing beside it for 24 hours; update your receiver within that time.",
                )
              )
                return;
              start(async () => {
                const r = await rotateSecretAction({ sheetId, endpointId: endpoint.id });
                if (r.ok) setSecret(r.data.secret);
                else setMessage(r.error);
              });
            }}
          >
            Rotate secret
          </button>
          {confirming ? (
            <>
              <button
                type="button"
                className="rounded-md bg-red-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-700"
                disabled={pending}
                data-testid="confirm-remove"
                onClick={() => run(() => removeEndpointAction({ sheetId, endpointId: endpoint.id }), "Removed.")}
              >
                Remove for good
              </button>
              <button type="button" className={button} onClick={() => setConfirming(false)} data-testid="cancel-remove">
                Cancel
              </button>
            </>
          ) : (
            <button
              type="button"
              className={button}
              onClick={() => setConfirming(true)}
              aria-label={`Remove the endpoint ${endpoint.url}`}
            >
              Remove
            </button>
          )}
        </div>
      </div>
      {confirming && (
        <p role="alert" className="text-sm text-red-800 dark:text-red-200" data-testid="remove-explained">
          Removing stops deliveries to this URL at once, drops the events still waiting for it and its delivery log. It
          cannot be undone; to pause deliveries instead, Disable it.
        </p>
      )}
      {endpoint.disabledReason && (
        <p
          role="alert"
          className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
          data-testid="endpoint-disabled-reason"
        >
          {endpoint.disabledReason}
        </p>
      )}
      {!endpoint.disabledReason && endpoint.failingSince && (
        <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          Failing since {when(endpoint.failingSince)}: deliveries are being retried. After three days of failures the
          endpoint is disabled.
        </p>
      )}
      {secret && <SecretNotice secret={secret} onClose={() => setSecret(null)} rotated />}
      {message && (
        <p role="status" className="text-sm text-slate-600 dark:text-slate-400" data-testid="endpoint-message">
          {message}
        </p>
      )}

      <details className="min-w-0">
        <summary className="cursor-pointer text-sm text-slate-600 dark:text-slate-400">Events and tabs</summary>
        <div className="mt-2 space-y-2">
          <Choices
            label="Events"
            options={eventTypes}
            value={events}
            onChange={setEvents}
            prefix={`event-${endpoint.id}`}
          />
          <Choices label="Tabs" options={tabs} value={chosenTabs} onChange={setTabs} prefix={`tab-${endpoint.id}`} />
          <button
            type="button"
            className={button}
            disabled={pending || !dirty}
            onClick={() => run(() => save(endpoint.enabled), "Saved.")}
          >
            Save
          </button>
        </div>
      </details>

      <details className="min-w-0">
        <summary className="cursor-pointer text-sm text-slate-600 dark:text-slate-400">Replay a time range</summary>
        <form
          className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            start(async () => {
              const r = await replayAction({ sheetId, endpointId: endpoint.id, from: toIso(from), to: toIso(to) });
              setMessage(r.ok ? r.data.message : r.error);
              router.refresh();
            });
          }}
        >
          <label className="text-xs text-slate-500 dark:text-slate-400">
            From
            <input
              type="datetime-local"
              required
              value={from}
              onChange={(e) => setFrom(e.target.value)}
              className="mt-1 block w-full rounded-md border border-slate-300 bg-transparent px-2 py-1.5 text-sm dark:border-slate-700"
            />
          </label>
          <label className="text-xs text-slate-500 dark:text-slate-400">
            To
            <input
              type="datetime-local"
              required
              value={to}
              onChange={(e) => setTo(e.target.value)}
              className="mt-1 block w-full rounded-md border border-slate-300 bg-transparent px-2 py-1.5 text-sm dark:border-slate-700"
            />
          </label>
          <button type="submit" className={button} disabled={pending}>
            Replay
          </button>
        </form>
      </details>

      <div>
        <h3 className="text-sm font-semibold">Recent deliveries</h3>
        {endpoint.log.length === 0 ? (
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
            None yet: change a row of the sheet (through the API or in Google Sheets).
          </p>
        ) : (
          <ul
            className="mt-2 divide-y divide-slate-200 rounded-md border border-slate-200 dark:divide-slate-800 dark:border-slate-800"
            data-testid="delivery-log"
          >
            {endpoint.log.map((entry) => (
              <LogRow key={entry.id} sheetId={sheetId} endpointId={endpoint.id} entry={entry} />
            ))}
          </ul>
        )}
      </div>
    </article>
  );
}
