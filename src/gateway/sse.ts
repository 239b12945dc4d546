/** One server-sent event: its `event:` name (when given) and its `data:` text. */
export interface SseEvent {
  readonly event?: string;
  readonly data: string;
}

/**
 * An incremental SSE parser: feed it chunks as they arrive (split anywhere, even inside a line or
 * a multi-byte character) and it returns the events each chunk completed.
 */
export class SseParser {
  private buffer = '';
  private readonly decoder = new TextDecoder();
  private event: string | undefined;
  private data: string[] = [];

  push(chunk: Uint8Array | string): SseEvent[] {
    this.buffer += typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    const events: SseEvent[] = [];
    let newline = this.buffer.search(/\r?\n|\r/);
    while (newline !== -1) {
      const line = this.buffer.slice(0, newline);
      const width = this.buffer.startsWith('\r\n', newline) ? 2 : 1;
      // A lone trailing \r may be the first half of \r\n: wait for the next chunk.
      if (width === 1 && this.buffer[newline] === '\r' && newline === this.buffer.length - 1) break;
      this.buffer = this.buffer.slice(newline + width);
      const done = this.line(line);
      if (done !== undefined) events.push(done);
      newline = this.buffer.search(/\r?\n|\r/);
    }
    return events;
  }

  /** The event a stream ended in without its blank line, if any. */
  end(): SseEvent[] {
    const rest = this.buffer;
    this.buffer = '';
    const events: SseEvent[] = [];
    if (rest !== '') {
      const done = this.line(rest);
      if (done !== undefined) events.push(done);
    }
    const last = this.line('');
    if (last !== undefined) events.push(last);
    return events;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') {
      if (this.data.length === 0 && this.event === undefined) return undefined;
      const event: SseEvent = {
        ...(this.event === undefined ? {} : { event: this.event }),
        data: this.data.join('\n'),
      };
      this.event = undefined;
      this.data = [];
      return event;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    return undefined;
  }
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

/** Parses an event's data as JSON; undefined for `[DONE]` and anything that is not JSON. */
export function sseJson(event: SseEvent): unknown {
  if (event.data === '[DONE]') return undefined;
  try {
    return JSON.parse(event.data);
  } catch {
    return undefined;
  }
}
