/** "1 tab", "3 tabs", "1,000 rows": counts in words people read. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
}
