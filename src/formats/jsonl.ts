import type { Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Diagnostic } from '../core/diagnostic.ts';

/** One non-blank line of a JSONL file: its parsed JSON, or why it is not JSON. */
export type JsonlRecord =
  | { readonly kind: 'value'; readonly line: number; readonly value: unknown; readonly text: string }
  | { readonly kind: 'error'; readonly line: number; readonly diagnostic: Diagnostic };

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * Streams a JSONL file line by line: memory stays flat however many records there are.
 * Bytes are split on `\n` before decoding so that invalid UTF-8 is caught per line (readline
 * would silently replace it). A BOM, CRLF endings and blank lines are accepted.
 * When `hash` is given, every byte read is fed to it.
 */
export async function* readJsonl(file: string, hash?: Hash): AsyncGenerator<JsonlRecord> {
  for await (const batch of readJsonlBatches(file, hash)) yield* batch;
}

/** The records of each chunk read (256 KiB) at once: one await per chunk rather than per line. */
export async function* readJsonlBatches(file: string, hash?: Hash): AsyncGenerator<JsonlRecord[]> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let lineNumber = 0;
  let carry: Buffer | undefined;
  for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) {
    const bytes = chunk instanceof Buffer ? chunk : Buffer.from(String(chunk));
    hash?.update(bytes);
    const buf = carry === undefined ? bytes : Buffer.concat([carry, bytes]);
    let start = 0;
    const batch: JsonlRecord[] = [];
    for (let nl = buf.indexOf(NEWLINE, start); nl !== -1; nl = buf.indexOf(NEWLINE, start)) {
      lineNumber++;
      const record = decodeLine(file, lineNumber, buf.subarray(start, nl), decoder);
      if (record !== undefined) batch.push(record);
      start = nl + 1;
    }
    if (batch.length > 0) yield batch;
    carry = start < buf.length ? Buffer.from(buf.subarray(start)) : undefined;
  }
  if (carry !== undefined) {
    lineNumber++;
    const record = decodeLine(file, lineNumber, carry, decoder);
    if (record !== undefined) yield [record];
  }
}

function decodeLine(
  file: string,
  line: number,
  raw: Buffer,
  decoder: { decode(input: Uint8Array): string },
): JsonlRecord | undefined {
  let bytes = raw;
  if (bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
  if (line === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return {
      kind: 'error',
      line,
      diagnostic: {
        file,
        line,
        col: invalidUtf8Column(bytes),
        path: '',
        message: 'invalid UTF-8',
        expected: 'UTF-8 text',
        severity: 'error',
      },
    };
  }
  if (text.trim() === '') return undefined;
  try {
    return { kind: 'value', line, value: JSON.parse(text), text };
  } catch (error) {
    return {
      kind: 'error',
      line,
      diagnostic: {
        file,
        line,
        col: jsonErrorColumn(error, text),
        path: '',
        message: `not valid JSON: ${jsonErrorReason(error)}`,
        expected: 'one JSON object per line',
        severity: 'error',
      },
    };
  }
}

/** Column (1-based, in characters) of the first byte that is not valid UTF-8. */
function invalidUtf8Column(bytes: Buffer): number {
  const probe = new TextDecoder('utf-8', { fatal: true });
  let lo = 0;
  let hi = bytes.length;
  // Binary search for the longest valid prefix; a cut inside a character counts as invalid.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    try {
      probe.decode(bytes.subarray(0, mid));
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return [...bytes.subarray(0, lo).toString('utf8')].length + 1;
}

/** V8's JSON.parse message without the position or quoted text (the diagnostic is located already). */
export function jsonErrorReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // V8 quotes the whole line back ("... is not valid JSON"); the line is already located.
  return message
    .replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '')
    .replace(/ in JSON at position \d+.*$/s, '');
}

/** V8 reports `at position N` for some errors and nothing for others; scan for the rest. */
function jsonErrorColumn(error: unknown, text: string): number {
  const message = error instanceof Error ? error.message : '';
  const position = /at position (\d+)/.exec(message);
  if (position) return Number(position[1]) + 1;
  const lineCol = /\(line \d+ column (\d+)\)/.exec(message);
  if (lineCol) return Number(lineCol[1]);
  if (/Unexpected end of JSON input/.test(message)) return text.length + 1;
  const token = /Unexpected token '(.)'/.exec(message);
  if (token?.[1] !== undefined) {
    const at = text.indexOf(token[1]);
    if (at >= 0) return at + 1;
  }
  return 1;
}
