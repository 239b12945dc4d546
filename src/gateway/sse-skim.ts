import type { SseFrame } from './sse.ts';

/**
 * Byte checks that let a stream observer skip decoding the events that change no recorded figure.
 * They read the JSON text as the upstream wrote it; anything they cannot be sure of is parsed.
 * JSON strings escape every quote inside them, so an unescaped `"key":` in the bytes is structure.
 */

const QUOTE = 34;
const BACKSLASH = 92;
const CLOSE_BRACE = 125;
const TYPE_HEAD = Buffer.from('{"type":"');

/** Whether `bytes` stand in `buf` at `at`. */
export function bytesAt(buf: Buffer, at: number, bytes: Buffer): boolean {
  const end = at + bytes.length;
  return end <= buf.length && buf.compare(bytes, 0, bytes.length, at, end) === 0;
}

/** The event's data is one line that ends an object (a cut-short event never does). */
function wholeObject(frame: SseFrame): boolean {
  return (
    frame.dataLines === 1 && frame.dataEnd > frame.dataStart && frame.buf[frame.dataEnd - 1] === CLOSE_BRACE
  );
}

/**
 * The `type` an event's JSON data starts with (`{"type":"…"`, as Anthropic and the Responses API
 * write it); undefined when it does not start so, or the name has an escape in it.
 */
export function leadingType(frame: SseFrame): string | undefined {
  const { buf, dataStart, dataEnd } = frame;
  if (!wholeObject(frame) || !bytesAt(buf, dataStart, TYPE_HEAD)) return undefined;
  const from = dataStart + TYPE_HEAD.length;
  for (let i = from; i < dataEnd; i++) {
    const byte = buf[i];
    if (byte === BACKSLASH) return undefined;
    if (byte === QUOTE) return buf.toString('utf8', from, i);
  }
  return undefined;
}

/**
 * Whether the data is `head`, then a JSON string's contents from `from`, then one of `tails`
 * (the first starting with the string's closing quote): the index where the string ends, or -1.
 */
export function stringThenTail(frame: SseFrame, from: number, tails: readonly Buffer[]): number {
  if (!wholeObject(frame)) return -1;
  const { buf, dataEnd } = frame;
  const tail = tails.find((t) => dataEnd - t.length >= from && bytesAt(buf, dataEnd - t.length, t));
  if (tail === undefined) return -1;
  const close = dataEnd - tail.length;
  // Every quote before the closing one must be escaped (an odd run of backslashes before it).
  for (let q = buf.indexOf(QUOTE, from); q !== -1 && q < close; q = buf.indexOf(QUOTE, q + 1)) {
    let backslashes = 0;
    for (let b = q - 1; b >= from && buf[b] === BACKSLASH; b--) backslashes++;
    if (backslashes % 2 === 0) return -1;
  }
  return close;
}
