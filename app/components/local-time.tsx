"use client";
// A moment in the reader's own time zone. The server renders it in UTC and the browser, once the
// page runs, in its zone (the same text for a reader in UTC); the tooltip keeps the UTC time and
// `dateTime` the exact instant.
import { useSyncExternalStore } from "react";
import { momentText, readerTimeZone, type MomentShape } from "@/lib/moment-text";

// The zone does not change while a page is open: nothing to subscribe to.
const noSubscription = () => () => {};
const serverZone = () => "UTC";

export function LocalTime({ at, shape }: { at: Date | string | number; shape: MomentShape }) {
  const zone = useSyncExternalStore(noSubscription, readerTimeZone, serverZone);
  const instant = new Date(at);
  const valid = !Number.isNaN(instant.getTime());
  const local = momentText(instant, shape, zone);
  const utc = momentText(instant, shape);
  return (
    <time dateTime={valid ? instant.toISOString() : undefined} title={local === utc ? undefined : utc}>
      {local}
    </time>
  );
}
