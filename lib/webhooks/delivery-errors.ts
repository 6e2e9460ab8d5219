// A failed delivery's reason as the endpoint's owner reads it in the delivery log: what went
// wrong in words, with the system's own message after it for whoever debugs the receiver.
const REASONS: Record<string, string> = {
  ECONNREFUSED: "Connection refused: nothing is listening at that address and port",
  ECONNRESET: "The receiver closed the connection before answering",
  ETIMEDOUT: "The receiver did not answer in time",
  ENOTFOUND: "The host name does not resolve",
  EAI_AGAIN: "The host name could not be resolved just now",
  EHOSTUNREACH: "The host cannot be reached",
  ENETUNREACH: "The network of that address cannot be reached",
  CERT_HAS_EXPIRED: "The receiver's TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "The receiver's TLS certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "The receiver's TLS certificate chain is self-signed",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "The receiver's TLS certificate cannot be verified",
  ERR_TLS_CERT_ALTNAME_INVALID: "The receiver's TLS certificate is for another host name",
};

/** `err` of a delivery attempt, in words (at most 500 characters). */
export function deliveryErrorText(err: unknown): string {
  const { code, message } = err as { code?: string; message?: string };
  // Node reports a refused dual-stack connection as an AggregateError with an empty message.
  const raw = message || code || String(err);
  const reason = code ? REASONS[code] : undefined;
  return (reason ? `${reason} (${raw}).` : raw).slice(0, 500);
}

/** A receiver's non-2xx answer: a redirect says where it pointed, and that it is not followed. */
export function answerErrorText(status: number, location?: string): string {
  if (!location) return `HTTP ${status}`;
  return `HTTP ${status}: a redirect to ${location}, which is not followed; set the endpoint's URL to the address that receives.`.slice(
    0,
    500,
  );
}
