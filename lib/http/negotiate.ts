// Which representation a read answers: JSON (the default) or CSV, from the Accept header's
// preferences (q values; JSON wins ties and wildcards, so `*/*` and browsers get JSON).
export type ReadFormat = "json" | "csv";

function quality(accept: string, type: string): number {
  let best = -1;
  let bestSpecificity = -1;
  for (const part of accept.split(",")) {
    const [range = "", ...params] = part
      .trim()
      .toLowerCase()
      .split(";")
      .map((p) => p.trim());
    const [main, sub] = range.split("/");
    const specificity = range === type ? 2 : main === type.split("/")[0] && sub === "*" ? 1 : range === "*/*" ? 0 : -1;
    if (specificity < bestSpecificity || specificity < 0) continue;
    const q = params.find((p) => p.startsWith("q="));
    best = q ? Number(q.slice(2)) || 0 : 1;
    bestSpecificity = specificity;
  }
  return best;
}

export function acceptedFormat(accept: string | null): ReadFormat {
  if (!accept) return "json";
  const csv = quality(accept, "text/csv");
  return csv > 0 && csv > quality(accept, "application/json") ? "csv" : "json";
}
