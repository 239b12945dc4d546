import type { FieldPath, Locate, Position } from './issues.ts';

/**
 * A document written as plain JSON, read without the YAML parser: `JSON.parse` for the value and
 * one scan of the text for where each value starts. The YAML parser builds a node for every
 * value of the file, which for a 10,000-test suite cost most of a second on every load (`compare`
 * reads the candidate's suite file for its thresholds). The positions are the ones the YAML
 * reader gives (test/unit/formats/json-source.test.ts holds them side by side).
 */
export interface JsonSource {
  readonly value: unknown;
  readonly locate: Locate;
}

/** Where a value starts and, for objects and arrays, where their members start. */
interface ValueStart {
  readonly start: number;
  readonly keys?: Map<string, ValueStart>;
  readonly items?: ValueStart[];
}

/** Thrown inside the scan at a key written twice: the YAML reader reports it, located. */
const DUPLICATE_KEY = Symbol('duplicate key');

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const endsScalar = (c: number) => Number.isNaN(c) || isSpace(c) || c === 0x2c || c === 0x5d || c === 0x7d;

/** Walks text that `JSON.parse` accepted, so every token is well formed. */
class StartScanner {
  #pos = 0;
  constructor(private readonly text: string) {}

  #skipSpace(): void {
    while (isSpace(this.text.charCodeAt(this.#pos))) this.#pos++;
  }

  value(): ValueStart {
    this.#skipSpace();
    const start = this.#pos;
    const c = this.text.charCodeAt(start);
    if (c === 0x7b) return this.#object(start);
    if (c === 0x5b) return this.#array(start);
    if (c === 0x22) {
      this.#string();
      return { start };
    }
    while (!endsScalar(this.text.charCodeAt(this.#pos))) this.#pos++;
    return { start };
  }

  #object(start: number): ValueStart {
    const keys = new Map<string, ValueStart>();
    this.#pos++;
    this.#skipSpace();
    if (this.text.charCodeAt(this.#pos) === 0x7d) {
      this.#pos++;
      return { start, keys };
    }
    for (;;) {
      this.#skipSpace();
      const key = this.#string();
      this.#skipSpace();
      this.#pos++; // the colon
      const member = this.value();
      if (keys.has(key)) throw DUPLICATE_KEY;
      keys.set(key, member);
      this.#skipSpace();
      if (this.text.charCodeAt(this.#pos++) === 0x7d) return { start, keys };
    }
  }

  #array(start: number): ValueStart {
    const items: ValueStart[] = [];
    this.#pos++;
    this.#skipSpace();
    if (this.text.charCodeAt(this.#pos) === 0x5d) {
      this.#pos++;
      return { start, items };
    }
    for (;;) {
      items.push(this.value());
      this.#skipSpace();
      if (this.text.charCodeAt(this.#pos++) === 0x5d) return { start, items };
    }
  }

  /** The string's value (keys are compared decoded, as YAML compares them). */
  #string(): string {
    const start = this.#pos++;
    let escaped = false;
    for (;;) {
      const c = this.text.charCodeAt(this.#pos++);
      if (c === 0x22) break;
      if (c === 0x5c) {
        escaped = true;
        this.#pos++;
      }
    }
    const raw = this.text.slice(start, this.#pos);
    return escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  }
}

/** The offset `path` leads to: for a key that is not there, its parent's (as yaml-source.ts does). */
function offsetOf(root: ValueStart, path: FieldPath): number {
  let node = root;
  for (const key of path) {
    const next =
      node.keys !== undefined
        ? node.keys.get(String(key))
        : node.items !== undefined && typeof key === 'number'
          ? node.items[key]
          : undefined;
    if (next === undefined) return node.start;
    node = next;
  }
  return node.start;
}

/** 1-based line and column of an offset, as yaml's LineCounter gives them. */
function positions(text: string): (offset: number) => Position {
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, col: offset - (lineStarts[low] ?? 0) + 1 };
  };
}

/**
 * The document when `text` (BOM removed) is a JSON object or array without a key written twice;
 * undefined otherwise, and the YAML reader takes it (with its located errors).
 */
export function parseJsonSource(text: string): JsonSource | undefined {
  const first = text.charCodeAt(text.search(/\S/));
  if (first !== 0x7b && first !== 0x5b) return undefined;
  let value: unknown;
  let root: ValueStart;
  try {
    value = JSON.parse(text);
    root = new StartScanner(text).value();
  } catch {
    // Not JSON (YAML in braces, a comment, a tab in a string...), a duplicate key, or nesting
    // too deep for the scan: the YAML reader decides, as before.
    return undefined;
  }
  const at = positions(text);
  return { value, locate: (path) => at(offsetOf(root, path)) };
}
