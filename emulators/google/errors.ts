// Google's JSON error bodies: { error: { code, message, status?, errors?, details? } }. Sheets v4
// answers carry `status` and no `errors[]` (`details` with a google.rpc.ErrorInfo for auth and
// quota refusals, a BadRequest for a malformed field); Drive v3 answers carry `errors[]` with a
// reason and, for most, no `status`.

type Json = Record<string, unknown>;

export interface GoogleErrorExtras {
  /** `errors[]` entries beyond the default one built from `reason`. */
  errors?: Json[];
  /** google.rpc `details[]`, e.g. ErrorInfo with the machine-readable reason. */
  details?: Json[];
  /** Drive v3 leaves `status` out of most error bodies. */
  omitStatus?: boolean;
}

export class GoogleError extends Error {
  constructor(
    readonly code: number,
    readonly status: string,
    message: string,
    readonly reason?: string,
    readonly extras: GoogleErrorExtras = {},
  ) {
    super(message);
  }

  /** The body as `api` words it: Drive keeps the legacy `errors[]` array, Sheets v4 sends none. */
  body(api: "sheets" | "drive" = "sheets"): Json {
    const error: Json = { code: this.code, message: this.message };
    if (!this.extras.omitStatus) error.status = this.status;
    if (api === "sheets") {
      // no errors[]: Sheets v4 carries machine-readable reasons in details[] only
    } else if (this.extras.errors) error.errors = this.extras.errors;
    else if (this.reason) error.errors = [{ message: this.message, domain: "global", reason: this.reason }];
    if (this.extras.details) error.details = this.extras.details;
    return { error };
  }
}

/** Which API a route belongs to, for the `service` Google names in its errors. */
export const serviceOf = (route: string) => (route === "files.get" ? "drive.googleapis.com" : "sheets.googleapis.com");

const errorInfo = (reason: string, service: string, metadata: Json = {}): Json => ({
  "@type": "type.googleapis.com/google.rpc.ErrorInfo",
  reason,
  domain: "googleapis.com",
  metadata: { service, ...metadata },
});

export const notFound = () => new GoogleError(404, "NOT_FOUND", "Requested entity was not found.", "notFound");
/** Drive's answer for a file the caller cannot see (it never says 403 for those). */
export const fileNotFound = (fileId: string) =>
  new GoogleError(404, "NOT_FOUND", `File not found: ${fileId}.`, "notFound", {
    omitStatus: true,
    errors: [
      {
        message: `File not found: ${fileId}.`,
        domain: "global",
        reason: "notFound",
        location: "fileId",
        locationType: "parameter",
      },
    ],
  });
export const permissionDenied = () =>
  new GoogleError(403, "PERMISSION_DENIED", "The caller does not have permission", "forbidden");
/** 401 for a bearer token Google did not issue or no longer honours; `typeUnsupported` for a JWT. */
export const unauthenticated = (route = "values.get", typeUnsupported = false) =>
  new GoogleError(
    401,
    "UNAUTHENTICATED",
    "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
    "unauthorized",
    typeUnsupported ? { details: [errorInfo("ACCESS_TOKEN_TYPE_UNSUPPORTED", serviceOf(route))] } : {},
  );
export const badRequest = (message: string) => new GoogleError(400, "INVALID_ARGUMENT", message, "badRequest");
/** A JSON field Google's schema does not have (a batchUpdate request kind it does not serve, here). */
export function unknownField(name: string, at: string): GoogleError {
  const message = `Invalid JSON payload received. Unknown name "${name}" at '${at}': Cannot find field.`;
  return new GoogleError(400, "INVALID_ARGUMENT", message, undefined, {
    details: [
      { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field: at, description: message }] },
    ],
  });
}
/** A JSON value of the wrong type for a field, as Google's request parser words it. */
export function invalidValue(field: string, type: string, value: unknown): GoogleError {
  const message = `Invalid value at '${field}' (${type}), ${JSON.stringify(value)}`;
  return new GoogleError(400, "INVALID_ARGUMENT", message, undefined, {
    details: [
      { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field, description: message }] },
    ],
  });
}
export const unparsableRange = (range: string) => badRequest(`Unable to parse range: ${range}`);

export const scopeInsufficient = (route: string) =>
  new GoogleError(
    403,
    "PERMISSION_DENIED",
    "Request had insufficient authentication scopes.",
    "insufficientPermissions",
    {
      errors: [{ message: "Insufficient Permission", domain: "global", reason: "insufficientPermissions" }],
      details: [errorInfo("ACCESS_TOKEN_SCOPE_INSUFFICIENT", serviceOf(route), { method: route })],
    },
  );

const PROJECT = "000000000000";

/** 403 reasons that are not "no access", as Google words them; armed as faults by name. */
export const FAULT_REASONS = [
  "SERVICE_DISABLED",
  "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
  "userRateLimitExceeded",
  "rateLimitExceeded",
  "API_KEY_SERVICE_BLOCKED",
  "API_KEY_HTTP_REFERRER_BLOCKED",
] as const;
export type FaultReason = (typeof FAULT_REASONS)[number];

export function reasonError(reason: FaultReason, route: string): GoogleError {
  const service = serviceOf(route);
  const api = service === "drive.googleapis.com" ? "Google Drive API" : "Google Sheets API";
  switch (reason) {
    case "ACCESS_TOKEN_SCOPE_INSUFFICIENT":
      return scopeInsufficient(route);
    case "SERVICE_DISABLED": {
      const message = `${api} has not been used in project ${PROJECT} before or it is disabled. Enable it by visiting https://console.developers.google.com/apis/api/${service}/overview?project=${PROJECT} then retry. If you enabled this API recently, wait a few minutes for the action to propagate to our systems and retry.`;
      return new GoogleError(403, "PERMISSION_DENIED", message, "accessNotConfigured", {
        errors: [
          {
            message,
            domain: "usageLimits",
            reason: "accessNotConfigured",
            extendedHelp: "https://console.developers.google.com",
          },
        ],
        details: [errorInfo("SERVICE_DISABLED", service, { consumer: `projects/${PROJECT}` })],
      });
    }
    case "userRateLimitExceeded":
    case "rateLimitExceeded": {
      // Drive's own wording; Drive sends rate limits as 403 (or 429) with only errors[].reason.
      const message = reason === "userRateLimitExceeded" ? "User Rate Limit Exceeded" : "Rate Limit Exceeded";
      return new GoogleError(403, "PERMISSION_DENIED", message, reason, {
        omitStatus: true,
        errors: [{ message, domain: "usageLimits", reason }],
      });
    }
    case "API_KEY_SERVICE_BLOCKED":
      return new GoogleError(
        403,
        "PERMISSION_DENIED",
        `Requests to this API ${service} method ${route} are blocked.`,
        undefined,
        {
          details: [
            errorInfo("API_KEY_SERVICE_BLOCKED", service, { consumer: `projects/${PROJECT}`, methodName: route }),
          ],
        },
      );
    case "API_KEY_HTTP_REFERRER_BLOCKED":
      return new GoogleError(403, "PERMISSION_DENIED", "Requests from referer <empty> are blocked.", undefined, {
        details: [errorInfo("API_KEY_HTTP_REFERRER_BLOCKED", service, { consumer: `projects/${PROJECT}` })],
      });
  }
}

/** The bodies Google sends for the faults tests inject. */
export function faultError(status: number, route: string): GoogleError {
  switch (status) {
    case 429: {
      const kind =
        route.startsWith("values.get") ||
        route === "spreadsheets.get" ||
        route === "values.batchGet" ||
        route === "files.get"
          ? "Read"
          : "Write";
      return new GoogleError(
        429,
        "RESOURCE_EXHAUSTED",
        `Quota exceeded for quota metric '${kind} requests' and limit '${kind} requests per minute per user' of service 'sheets.googleapis.com' for consumer 'project_number:000000000000'.`,
        "rateLimitExceeded",
        {
          details: [
            errorInfo("RATE_LIMIT_EXCEEDED", serviceOf(route), {
              consumer: `projects/${PROJECT}`,
              quota_metric: `sheets.googleapis.com/${kind.toLowerCase()}_requests`,
              quota_limit: `${kind}RequestsPerMinutePerUser`,
            }),
          ],
        },
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
