/**
 * One server-sent event as bytes, found without decoding them: offsets into `buf`. A frame is
 * valid only while the callback that got it runs (the framer reuses its buffer and the frame).
 */
export interface SseFrame {
  buf: Buffer;
  /** The event's first byte (comment lines before its fields included). */
  start: number;
  /** After the blank line that ends it; `end` of the stream for an unterminated event. */
  next: number;
  /** The first `data:` value (after one optional space), and how many `data:` lines there are. */
  dataStart: number;
  dataEnd: number;
  dataLines: number;
  /** The `event:` value; -1 when there is none. */
  nameStart: number;
  nameEnd: number;
  /** The stream ended inside this event (no blank line after it). */
  unterminated: boolean;
}

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;

/** Whether the line's field name ends at `at` (a colon follows, or the line ends). */
function nameEnds(buf: Buffer, at: number, lineEnd: number): boolean {
  return at === lineEnd || (at < lineEnd && buf[at] === COLON);
}

/** The length of the field name a line starts with when it is `data` or `event` (else 0). */
function fieldName(buf: Buffer, at: number, lineEnd: number): number {
  // Byte by byte: `d a t a` and `e v e n t`, cheaper than a native compare for four bytes.
  if (buf[at] === 100) {
    return buf[at + 1] === 97 && buf[at + 2] === 116 && buf[at + 3] === 97 && nameEnds(buf, at + 4, lineEnd)
      ? 4
      : 0;
  }
  const event =
    buf[at] === 101 &&
    buf[at + 1] === 118 &&
    buf[at + 2] === 101 &&
    buf[at + 3] === 110 &&
    buf[at + 4] === 116 &&
    nameEnds(buf, at + 5, lineEnd);
  return event ? 5 : 0;
}

/**
 * An incremental SSE framer over bytes: feed it chunks as they arrive (split anywhere, even inside
 * a line, a CRLF or a multi-byte character) and it calls back with each event the chunk completed.
 * Nothing is decoded here: a reader decodes only the events it needs.
 */
export class SseFramer {
  /** Bytes of an unfinished event carried to the next chunk (a growable buffer, `carried` used). */
  private carry = Buffer.alloc(0);
  private carried = 0;
  /** Whether the buffer being scanned is `carry` (else the caller's chunk). */
  private inCarry = false;
  /** Where the next line starts in the current buffer (after rebasing, in `carry`). */
  private lineStart = 0;
  /** No line ends between `lineStart` and here: a long line split over many chunks is scanned once. */
  private searchFrom = 0;
  private readonly frame: SseFrame = {
    buf: this.carry,
    start: 0,
    next: 0,
    dataStart: 0,
    dataEnd: 0,
    dataLines: 0,
    nameStart: -1,
    nameEnd: -1,
    unterminated: false,
  };

  push(chunk: Buffer, onFrame: (frame: SseFrame) => void): void {
    if (chunk.length === 0) return;
    this.inCarry = this.carried !== 0;
    const buf = this.inCarry ? this.append(chunk) : chunk;
    this.frame.buf = buf;
    this.scan(buf, onFrame, false);
    this.keep(buf);
  }

  /** Ends the stream: an event it ended inside of (no blank line after) is given, `unterminated`. */
  end(onFrame: (frame: SseFrame) => void): void {
    const buf = this.carry.subarray(0, this.carried);
    this.frame.buf = buf;
    this.scan(buf, onFrame, true);
    const frame = this.frame;
    if (this.lineStart < buf.length) this.line(buf, this.lineStart, buf.length);
    if (frame.dataLines > 0 || frame.nameStart !== -1) {
      frame.next = buf.length;
      frame.unterminated = true;
      onFrame(frame);
    }
    this.carried = 0;
    this.lineStart = 0;
    this.searchFrom = 0;
    this.reset(0);
  }

  private append(chunk: Buffer): Buffer {
    const need = this.carried + chunk.length;
    if (need > this.carry.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, this.carry.length * 2, 4096));
      this.carry.copy(grown, 0, 0, this.carried);
      this.carry = grown;
    }
    chunk.copy(this.carry, this.carried);
    this.carried = need;
    return this.carry.subarray(0, need);
  }

  /** Moves the unfinished event to the front of `carry`, its offsets with it. */
  private keep(buf: Buffer): void {
    const frame = this.frame;
    const from = frame.start;
    const rest = buf.length - from;
    if (rest === 0) {
      this.carried = 0;
      this.lineStart = 0;
      this.searchFrom = 0;
      this.reset(0);
      return;
    }
    if (this.inCarry) {
      if (from > 0) this.carry.copy(this.carry, 0, from, buf.length);
    } else {
      if (rest > this.carry.length) this.carry = Buffer.allocUnsafe(Math.max(rest, 4096));
      buf.copy(this.carry, 0, from);
    }
    this.carried = rest;
    this.lineStart -= from;
    this.searchFrom = Math.max(0, this.searchFrom - from);
    frame.start = 0;
    frame.dataStart -= from;
    frame.dataEnd -= from;
    if (frame.nameStart !== -1) {
      frame.nameStart -= from;
      frame.nameEnd -= from;
    }
  }

  private reset(start: number): void {
    const frame = this.frame;
    frame.start = start;
    frame.dataLines = 0;
    frame.dataStart = start;
    frame.dataEnd = start;
    frame.nameStart = -1;
    frame.nameEnd = -1;
    frame.unterminated = false;
  }

  private scan(buf: Buffer, onFrame: (frame: SseFrame) => void, final: boolean): void {
    const length = buf.length;
    let pos = this.lineStart;
    const from = Math.max(pos, this.searchFrom);
    let lf = buf.indexOf(LF, from);
    let cr = buf.indexOf(CR, from);
    while (pos < length) {
      if (lf !== -1 && lf < pos) lf = buf.indexOf(LF, pos);
      if (cr !== -1 && cr < pos) cr = buf.indexOf(CR, pos);
      const at = cr === -1 ? lf : lf === -1 ? cr : Math.min(lf, cr);
      if (at === -1) {
        this.searchFrom = length;
        break;
      }
      let width = 1;
      if (at === cr) {
        // A CR at the end of a chunk may be the first half of a CRLF: wait for the next byte.
        if (at + 1 === length && !final) {
          this.searchFrom = at;
          break;
        }
        if (buf[at + 1] === LF) width = 2;
      }
      if (at === pos) {
        const frame = this.frame;
        if (frame.dataLines > 0 || frame.nameStart !== -1) {
          frame.next = at + width;
          onFrame(frame);
        }
        this.reset(at + width);
      } else {
        this.line(buf, pos, at);
      }
      pos = at + width;
    }
    this.lineStart = pos;
  }

  /** One non-empty line: a comment, a field the gateway reads (`data`, `event`) or another one. */
  private line(buf: Buffer, start: number, end: number): void {
    if (buf[start] === COLON) return;
    const frame = this.frame;
    const name = fieldName(buf, start, end);
    if (name === 0) return;
    const isData = name === 4;
    let value = start + name + 1;
    if (value > end) value = end;
    else if (buf[value] === SPACE) value++;
    if (isData) {
      if (frame.dataLines === 0) {
        frame.dataStart = value;
        frame.dataEnd = end;
      }
      frame.dataLines++;
    } else {
      frame.nameStart = value;
      frame.nameEnd = end;
    }
  }
}

/** An event's data as text (several `data:` lines joined by newlines, as the SSE spec says). */
export function frameData(frame: SseFrame): string {
  const { buf } = frame;
  if (frame.dataLines === 0) return '';
  if (frame.dataLines === 1) return buf.toString('utf8', frame.dataStart, frame.dataEnd);
  const lines = buf.toString('utf8', frame.start, frame.next).split(/\r\n|\n|\r/);
  const data: string[] = [];
  for (const line of lines) {
    if (line === 'data' || line.startsWith('data:')) {
      const value = line.slice(5);
      data.push(value.startsWith(' ') ? value.slice(1) : value);
    }
  }
  return data.join('\n');
}

/** An event's `event:` name, when it has one. */
export function frameName(frame: SseFrame): string | undefined {
  return frame.nameStart === -1 ? undefined : frame.buf.toString('utf8', frame.nameStart, frame.nameEnd);
}

/** The wire text of one event; `event` is omitted for APIs that send bare `data:` lines. */
export function sseText(data: unknown, event?: string): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  const lines = payload
    .split('\n')
    .map((line) => `data: ${line}\n`)
    .join('');
  return `${event === undefined ? '' : `event: ${event}\n`}${lines}\n`;
}
