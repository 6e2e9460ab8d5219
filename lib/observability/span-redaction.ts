// The first span processor: censors credentials in every span before any exporter sees it.
// @vercel/otel builds the exporters it picks for the platform itself, so they cannot be wrapped:
// the span is cleaned in place when it ends (as @vercel/otel itself adds attributes there), and
// its name and attributes once more when it starts, for processors that read them early.
import type { Attributes, AttributeValue } from "@opentelemetry/api";
import type { ReadableSpan, Span, SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { redactSecrets } from "./redaction";

type Writable<T> = { -readonly [K in keyof T]: T[K] };

function cleanValue(value: AttributeValue | undefined): AttributeValue | undefined {
  if (typeof value === "string") return redactSecrets(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === "string" ? redactSecrets(v) : v)) as AttributeValue;
  return value;
}

/** Censors the attributes in place; answers the names it changed. */
function cleanAttributes(attributes: Attributes | undefined): string[] {
  const changed: string[] = [];
  if (!attributes) return changed;
  for (const [name, value] of Object.entries(attributes)) {
    const clean = cleanValue(value);
    if (JSON.stringify(clean) !== JSON.stringify(value)) {
      attributes[name] = clean;
      changed.push(name);
    }
  }
  return changed;
}

export class RedactingSpanProcessor implements SpanProcessor {
  onStart(span: Span): void {
    const name = redactSecrets(span.name);
    if (name !== span.name) span.updateName(name);
    const attributes = { ...span.attributes };
    for (const changed of cleanAttributes(attributes)) span.setAttribute(changed, attributes[changed]!);
  }

  onEnd(span: ReadableSpan): void {
    const s = span as Writable<ReadableSpan>;
    s.name = redactSecrets(s.name);
    cleanAttributes(s.attributes);
    if (s.status?.message) s.status = { ...s.status, message: redactSecrets(s.status.message) };
    for (const event of s.events ?? []) {
      (event as Writable<typeof event>).name = redactSecrets(event.name);
      cleanAttributes(event.attributes);
    }
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
