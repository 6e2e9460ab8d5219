// Faults that tests arm per route, for the next `count` calls: late, failing without applying, or
// applying then failing, what a slow or failing Google does to a write (emulators/google/README.md).
import { badRequest, faultError, reasonError, type FaultReason, type GoogleError } from "./errors";

const DRIVE_ONLY_REASONS: FaultReason[] = ["userRateLimitExceeded", "rateLimitExceeded"];

export interface FaultSpec {
  /** API method name (`values.get`, `values.append`, ...) or "*" for every route. */
  route: string;
  status?: 429 | 500 | 503;
  /** A 403 that is not "no access", with Google's body for it (SERVICE_DISABLED, Drive rate limits, API-key restrictions). */
  reason?: FaultReason;
  /** Wait before handling the call: its effect lands this late. */
  delayMs?: number;
  /** Wait after applying the call, before answering. */
  answerDelayMs?: number;
  /** With `status`: the call is applied, and then answered with the error. */
  applied?: boolean;
  /** How many calls the fault applies to; default 1, -1 for "until cleared". */
  count?: number;
  spreadsheetId?: string;
}

export interface TakenFault {
  delayMs: number;
  answerDelayMs: number;
  /** The error to answer, before applying (or after, when `applied`). */
  error?: GoogleError;
  applied: boolean;
}

export class Faults {
  private armed: FaultSpec[] = [];

  add(spec: FaultSpec): void {
    // Drive words rate limits as a 403 with errors[].reason; Sheets never does (it answers 429).
    if (spec.reason && DRIVE_ONLY_REASONS.includes(spec.reason) && spec.route !== "files.get") {
      throw badRequest(
        `${spec.reason} is Drive's answer (route files.get); Sheets answers rate limits with status 429.`,
      );
    }
    this.armed.push({ count: 1, ...spec });
  }

  clear(): void {
    this.armed = [];
  }

  list(): FaultSpec[] {
    return [...this.armed];
  }

  /** Consumes the first fault matching the call and returns what to do with it. */
  take(route: string, spreadsheetId?: string): TakenFault | undefined {
    const i = this.armed.findIndex(
      (f) => (f.route === "*" || f.route === route) && (!f.spreadsheetId || f.spreadsheetId === spreadsheetId),
    );
    if (i === -1) return undefined;
    const fault = this.armed[i]!;
    if (fault.count !== -1) {
      fault.count = (fault.count ?? 1) - 1;
      if (fault.count <= 0) this.armed.splice(i, 1);
    }
    const error = fault.reason
      ? reasonError(fault.reason, route)
      : fault.status
        ? faultError(fault.status, route)
        : undefined;
    return {
      delayMs: fault.delayMs ?? 0,
      answerDelayMs: fault.answerDelayMs ?? 0,
      error,
      applied: fault.applied === true,
    };
  }
}
