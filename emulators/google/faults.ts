// Faults that tests arm per route: an error status, a 403 reason, a delay, or a mix, for the next
// `count` calls.
import { faultError, reasonError, type FaultReason, type GoogleError } from "./errors";

export interface FaultSpec {
  /** API method name (`values.get`, `values.append`, ...) or "*" for every route. */
  route: string;
  status?: 429 | 500 | 503;
  /** A 403 that is not "no access", with Google's body for it (SERVICE_DISABLED, Drive rate limits, API-key restrictions). */
  reason?: FaultReason;
  delayMs?: number;
  /** How many calls the fault applies to; default 1, -1 for "until cleared". */
  count?: number;
  spreadsheetId?: string;
}

export class Faults {
  private armed: FaultSpec[] = [];

  add(spec: FaultSpec): void {
    this.armed.push({ count: 1, ...spec });
  }

  clear(): void {
    this.armed = [];
  }

  list(): FaultSpec[] {
    return [...this.armed];
  }

  /** Consumes the first fault matching the call and returns what to do with it. */
  take(route: string, spreadsheetId?: string): { delayMs: number; error?: GoogleError } | undefined {
    const i = this.armed.findIndex(
      (f) => (f.route === "*" || f.route === route) && (!f.spreadsheetId || f.spreadsheetId === spreadsheetId),
    );
    if (i === -1) return undefined;
    const fault = this.armed[i]!;
    if (fault.count !== -1) {
      fault.count = (fault.count ?? 1) - 1;
      if (fault.count <= 0) this.armed.splice(i, 1);
    }
    const error = fault.reason ? reasonError(fault.reason, route) : fault.status ? faultError(fault.status, route) : undefined;
    return { delayMs: fault.delayMs ?? 0, error };
  }
}
