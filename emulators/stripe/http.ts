// The emulator's HTTP plumbing: Stripe's error bodies and headers, request bodies, pages.
import type { IncomingMessage, ServerResponse } from "node:http";
import { newId } from "./model";

export const API_VERSION = "2024-04-10";

export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

export const missing = (kind: string, id: string, param = "id") =>
  new StripeError(404, {
    code: "resource_missing",
    doc_url: "https://stripe.com/docs/error-codes/resource-missing",
    message: `No such ${kind}: '${id}'`,
    param,
    type: "invalid_request_error",
  });
export const invalid = (message: string, param?: string) =>
  new StripeError(400, { message, ...(param ? { param } : {}), type: "invalid_request_error" });

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(payload),
    "request-id": newId("req"),
    "stripe-version": API_VERSION,
    ...headers,
  });
  res.end(payload);
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(html);
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location });
  res.end();
}
