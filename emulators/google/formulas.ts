// Formula cells computed as Sheets computes them, for FORMATTED_VALUE, UNFORMATTED_VALUE and
// effectiveValue: arithmetic (+ - * / ^, unary minus, %), comparison, `&`, references to cells
// and ranges (also on other tabs), and SUM, AVERAGE, MIN, MAX, COUNT, COUNTA, ROUND, ABS, IF.
// Anything else is #NAME?, as Sheets answers for an unknown function; a cycle is #REF!.
import { columnToIndex } from "./a1";
import { dateToSerial } from "./number-format";
import { cellAt, columnFormatFor, usedRowCount, type Spreadsheet, type Tab } from "./model";
import { isError, type Computed, type FormulaError, type NumberFormat, type Scalar } from "./values";

const fail = (error: FormulaError["error"], type: FormulaError["type"], message: string): FormulaError => ({
  error,
  type,
  message,
});
const divideByZero = () => fail("#DIV/0!", "DIVIDE_BY_ZERO", "Function DIVIDE parameter 2 cannot be zero.");
const parseError = () => fail("#ERROR!", "ERROR", "Formula parse error.");

class ParseFailure extends Error {}

type Node =
  | { kind: "value"; value: Scalar }
  | { kind: "ref"; tab?: string; r1: number; c1: number; r2: number; c2: number; single: boolean }
  | { kind: "call"; name: string; args: Node[] }
  | { kind: "unary"; op: string; arg: Node }
  | { kind: "binary"; op: string; left: Node; right: Node }
  | { kind: "percent"; arg: Node };

const TOKEN = new RegExp(
  [
    String.raw`\s+`,
    String.raw`"(?:[^"]|"")*"`,
    String.raw`(?:'(?:[^']|'')+'|[A-Za-z_][\w.]*)!\$?[A-Za-z]{1,3}\$?\d*(?::\$?[A-Za-z]{1,3}\$?\d*)?`,
    String.raw`[A-Za-z_][\w.]*(?=\s*\()`,
    String.raw`\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?`,
    String.raw`\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}`,
    String.raw`(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?`,
    String.raw`TRUE|FALSE`,
    String.raw`<=|>=|<>|[-+*/^&=<>%(),;]`,
  ].join("|"),
  "gy",
);

function tokenize(text: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m || m.index !== at) throw new ParseFailure(text);
    if (!/^\s+$/.test(m[0])) out.push(m[0]);
  }
  return out;
}

function refNode(token: string): Node {
  const bang = token.lastIndexOf("!");
  const tab =
    bang >= 0
      ? token
          .slice(0, bang)
          .replace(/^'(.*)'$/, "$1")
          .replace(/''/g, "'")
      : undefined;
  const [a, b] = token
    .slice(bang + 1)
    .replace(/\$/g, "")
    .split(":") as [string, string | undefined];
  const cell = (ref: string) => {
    const m = /^([A-Za-z]{1,3})(\d*)$/.exec(ref)!;
    return { c: columnToIndex(m[1]!.toUpperCase()), r: m[2] ? Number(m[2]) - 1 : undefined };
  };
  const start = cell(a);
  const end = b ? cell(b) : start;
  return {
    kind: "ref",
    tab,
    r1: start.r ?? 0,
    c1: Math.min(start.c, end.c),
    r2: end.r ?? Number.MAX_SAFE_INTEGER,
    c2: Math.max(start.c, end.c),
    single: !b,
  };
}

function parse(formula: string): Node {
  const tokens = tokenize(formula.replace(/^=/, ""));
  let i = 0;
  const peek = () => tokens[i];
  const take = (expected?: string) => {
    const t = tokens[i++];
    if (t === undefined || (expected !== undefined && t !== expected)) throw new ParseFailure(formula);
    return t;
  };
  const binary = (ops: string[], next: () => Node) => (): Node => {
    let left = next();
    while (ops.includes(peek() ?? "")) left = { kind: "binary", op: take(), left, right: next() };
    return left;
  };
  const primary = (): Node => {
    const t = take();
    if (t === "(") {
      const inner = comparison();
      take(")");
      return inner;
    }
    if (t === "-" || t === "+") return { kind: "unary", op: t, arg: power() };
    if (t.startsWith('"')) return { kind: "value", value: t.slice(1, -1).replace(/""/g, '"') };
    if (/^(TRUE|FALSE)$/i.test(t) && peek() !== "(") return { kind: "value", value: t.toUpperCase() === "TRUE" };
    if (/^[\d.]/.test(t)) return { kind: "value", value: Number(t) };
    if (peek() === "(") {
      take("(");
      const args: Node[] = [];
      if (peek() !== ")") {
        do args.push(comparison());
        while ((peek() === "," || peek() === ";") && take());
      }
      take(")");
      return { kind: "call", name: t.toUpperCase(), args };
    }
    if (/[A-Za-z]/.test(t)) return refNode(t);
    throw new ParseFailure(formula);
  };
  const postfix = (): Node => {
    let node = primary();
    while (peek() === "%") {
      take();
      node = { kind: "percent", arg: node };
    }
    return node;
  };
  const power = binary(["^"], postfix);
  const product = binary(["*", "/"], power);
  const sum = binary(["+", "-"], product);
  const concat = binary(["&"], sum);
  const comparison = binary(["=", "<>", "<", ">", "<=", ">="], concat);
  const root = comparison();
  if (i !== tokens.length) throw new ParseFailure(formula);
  return root;
}

function toNumber(v: Computed, fn = "ADD", position = 1): number | FormulaError {
  if (isError(v)) return v;
  if (v === null) return 0;
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return fail(
    "#VALUE!",
    "VALUE",
    `Function ${fn} parameter ${position} expects number values. But '${v}' is a text and cannot be coerced to a number.`,
  );
}

function toText(v: Scalar | null): string {
  if (v === null) return "";
  if (typeof v === "boolean") return v ? "TRUE" : "FALSE";
  return String(v);
}

const OP_NAMES: Record<string, string> = { "+": "ADD", "-": "MINUS", "*": "MULTIPLY", "/": "DIVIDE", "^": "POW" };

type Value = Computed | { range: Computed[] };
const isRange = (v: Value): v is { range: Computed[] } => typeof v === "object" && v !== null && "range" in v;

/** Computes a spreadsheet's formula cells; one instance per request, so each cell is computed once. */
export class Calculator {
  private values = new Map<string, Computed>();
  private formats = new Map<string, NumberFormat | undefined>();
  private visiting = new Set<string>();

  constructor(private readonly sheet: Spreadsheet) {}

  /** The cell's effective value: its own value, or its formula's result. */
  value(tab: Tab, r: number, c: number): Computed {
    const cell = cellAt(tab, r, c);
    if (!cell) return null;
    if (!cell.formula) return cell.value;
    const key = `${tab.sheetId}:${r}:${c}`;
    const known = this.values.get(key);
    if (known !== undefined) return known;
    if (this.visiting.has(key)) {
      return fail(
        "#REF!",
        "REF",
        "Circular dependency detected. To resolve with iterative calculation, see File > Settings.",
      );
    }
    this.visiting.add(key);
    const context: { format?: NumberFormat; counting: boolean } = { counting: false };
    let result: Computed;
    try {
      const v = this.evaluate(parse(String(cell.value)), tab, context);
      result = isRange(v) ? (v.range[0] ?? null) : v;
    } catch (err) {
      if (!(err instanceof ParseFailure)) throw err;
      result = parseError();
    } finally {
      this.visiting.delete(key);
    }
    this.values.set(key, result);
    // A result shows in the format of the first cell it refers to, as in Sheets (=B2*C2 of prices is a price).
    this.formats.set(key, typeof result === "number" ? context.format : undefined);
    return result;
  }

  /** The format a cell shows in: its own, its column's, or for a formula the one it inherits. */
  format(tab: Tab, r: number, c: number): NumberFormat | undefined {
    const cell = cellAt(tab, r, c);
    const own = cell?.format ?? columnFormatFor(tab, r, c);
    if (own || !cell?.formula) return own;
    this.value(tab, r, c);
    return this.formats.get(`${tab.sheetId}:${r}:${c}`);
  }

  private evaluate(node: Node, tab: Tab, context: { format?: NumberFormat; counting: boolean }): Value {
    switch (node.kind) {
      case "value":
        return node.value;
      case "ref": {
        const target = node.tab === undefined ? tab : this.sheet.tabs.find((t) => t.title === node.tab);
        if (!target) return fail("#REF!", "REF", `Unresolved sheet name '${node.tab}'.`);
        if (!context.counting && !context.format) context.format = this.format(target, node.r1, node.c1);
        if (node.single) return this.value(target, node.r1, node.c1);
        const range: Computed[] = [];
        const lastRow = Math.min(node.r2, usedRowCount(target) - 1);
        for (let r = node.r1; r <= lastRow; r++)
          for (let c = node.c1; c <= node.c2; c++) range.push(this.value(target, r, c));
        return { range };
      }
      case "unary": {
        const v = toNumber(this.scalar(node.arg, tab, context), "UMINUS");
        return isError(v) ? v : node.op === "-" ? -v : v;
      }
      case "percent": {
        const v = toNumber(this.scalar(node.arg, tab, context), "UNARY_PERCENT");
        return isError(v) ? v : v / 100;
      }
      case "binary":
        return this.binary(node.op, this.scalar(node.left, tab, context), this.scalar(node.right, tab, context));
      case "call":
        return this.call(node, tab, context);
    }
  }

  private scalar(node: Node, tab: Tab, context: { format?: NumberFormat; counting: boolean }): Computed {
    const v = this.evaluate(node, tab, context);
    return isRange(v) ? (v.range[0] ?? null) : v;
  }

  private binary(op: string, left: Computed, right: Computed): Computed {
    if (isError(left)) return left;
    if (isError(right)) return right;
    if (op === "&") return toText(left) + toText(right);
    if (["=", "<>", "<", ">", "<=", ">="].includes(op)) {
      const a = left ?? (typeof right === "string" ? "" : 0);
      const b = right ?? (typeof left === "string" ? "" : 0);
      const rank = (v: Scalar) => (typeof v === "number" ? 0 : typeof v === "string" ? 1 : 2);
      const cmp =
        rank(a) !== rank(b)
          ? rank(a) - rank(b)
          : typeof a === "string"
            ? a.toLowerCase().localeCompare(String(b).toLowerCase())
            : Number(a) - Number(b);
      return { "=": cmp === 0, "<>": cmp !== 0, "<": cmp < 0, ">": cmp > 0, "<=": cmp <= 0, ">=": cmp >= 0 }[op]!;
    }
    const a = toNumber(left, OP_NAMES[op], 1);
    if (isError(a)) return a;
    const b = toNumber(right, OP_NAMES[op], 2);
    if (isError(b)) return b;
    switch (op) {
      case "+":
        return a + b;
      case "-":
        return a - b;
      case "*":
        return a * b;
      case "/":
        return b === 0 ? divideByZero() : a / b;
      default: {
        const p = a ** b;
        return Number.isFinite(p) ? p : fail("#NUM!", "NUM", `Function POW result was too large.`);
      }
    }
  }

  private call(
    node: Extract<Node, { kind: "call" }>,
    tab: Tab,
    context: { format?: NumberFormat; counting: boolean },
  ): Computed {
    const inner: { format?: NumberFormat; counting: boolean } = {
      counting: context.counting || node.name === "COUNT" || node.name === "COUNTA",
    };
    const args = node.args.map((a) => this.evaluate(a, tab, inner));
    // The first reference inside the call lends the result its format (not for counts).
    if (!inner.counting && !context.format) context.format = inner.format;
    // Numbers of the arguments: from ranges only the numbers count, given values are coerced.
    const numbers = (): number[] | FormulaError => {
      const out: number[] = [];
      for (const [i, a] of args.entries()) {
        if (isRange(a)) {
          for (const v of a.range) {
            if (isError(v)) return v;
            if (typeof v === "number") out.push(v);
          }
        } else {
          const n = toNumber(a, node.name, i + 1);
          if (isError(n)) return n;
          out.push(n);
        }
      }
      return out;
    };
    const all = () => args.flatMap((a) => (isRange(a) ? a.range : [a]));
    const arg = (i: number) => {
      const a = args[i];
      return a === undefined ? null : isRange(a) ? (a.range[0] ?? null) : a;
    };
    switch (node.name) {
      case "NOW":
        // Volatile: a new value on every read, without an edit (Drive's modifiedTime does not move).
        if (!context.format) context.format = { type: "DATE_TIME" };
        return dateToSerial(new Date());
      case "SUM": {
        const ns = numbers();
        return isError(ns) ? ns : ns.reduce((s, n) => s + n, 0);
      }
      case "AVERAGE": {
        const ns = numbers();
        if (isError(ns)) return ns;
        return ns.length
          ? ns.reduce((s, n) => s + n, 0) / ns.length
          : fail("#DIV/0!", "DIVIDE_BY_ZERO", "Evaluation of function AVERAGE caused a divide by zero error.");
      }
      case "MIN":
      case "MAX": {
        const ns = numbers();
        if (isError(ns)) return ns;
        return ns.length ? (node.name === "MIN" ? Math.min(...ns) : Math.max(...ns)) : 0;
      }
      case "COUNT":
        return all().filter((v) => typeof v === "number").length;
      case "COUNTA":
        return all().filter((v) => v !== null && v !== "").length;
      case "ABS": {
        const n = toNumber(arg(0), "ABS");
        return isError(n) ? n : Math.abs(n);
      }
      case "ROUND": {
        const n = toNumber(arg(0), "ROUND");
        const places = toNumber(arg(1), "ROUND", 2);
        if (isError(n)) return n;
        if (isError(places)) return places;
        const f = 10 ** Math.trunc(places);
        return (Math.sign(n) * Math.round(Math.abs(n) * f)) / f;
      }
      case "IF": {
        const test = arg(0);
        if (isError(test)) return test;
        const truthy = typeof test === "string" ? test !== "" : Boolean(test);
        return truthy ? arg(1) : args.length > 2 ? arg(2) : false;
      }
      default:
        return fail("#NAME?", "NAME", `Unknown function: '${node.name.toLowerCase()}'.`);
    }
  }
}
