// Google's JSON error body: { error: { code, message, status, errors? } }.

export class GoogleError extends Error {
  constructor(
    readonly code: number,
    readonly status: string,
    message: string,
    readonly reason?: string,
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    const error: Record<string, unknown> = { code: this.code, message: this.message, status: this.status };
    if (this.reason) {
      error.errors = [{ message: this.message, domain: "global", reason: this.reason }];
    }
    return { error };
  }
}

export const notFound = () => new GoogleError(404, "NOT_FOUND", "Requested entity was not found.", "notFound");
export const permissionDenied = () =>
  new GoogleError(403, "PERMISSION_DENIED", "The caller does not have permission", "forbidden");
export const unauthenticated = () =>
  new GoogleError(
    401,
    "UNAUTHENTICATED",
    "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
    "unauthorized",
  );
export const badRequest = (message: string) => new GoogleError(400, "INVALID_ARGUMENT", message, "badRequest");
export const unparsableRange = (range: string) => badRequest(`Unable to parse range: ${range}`);

/** The bodies Google sends for the faults tests inject. */
export function faultError(status: number, route: string): GoogleError {
  switch (status) {
    case 429: {
      const kind = route.startsWith("values.get") || route === "spreadsheets.get" || route === "values.batchGet" || route === "files.get" ? "Read" : "Write";
      return new GoogleError(
        429,
        "RESOURCE_EXHAUSTED",
        `Quota exceeded for quota metric '${kind} requests' and limit '${kind} requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:000000000000'.`,
        "rateLimitExceeded",
      );
    }
    case 503:
      return new GoogleError(503, "UNAVAILABLE", "The service is currently unavailable.", "backendError");
    case 500:
      return new GoogleError(500, "INTERNAL", "Internal error encountered.", "backendError");
    default:
      return new GoogleError(status, "UNKNOWN", `Injected fault ${status}.`);
  }
}
