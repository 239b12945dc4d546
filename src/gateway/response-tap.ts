import type { ServerResponse } from 'node:http';
import type { ApiModule, CallObservation } from './protocol.ts';
import { StreamReader } from './stream-reader.ts';

/** The most response bytes kept for a cassette or a recorded body (a runaway stream is cut). */
const MAX_KEPT_BYTES = 8 * 1024 * 1024;

export interface TapOptions {
  readonly keepText: boolean;
  /** Keep Chat Completions usage-only chunks from the harness (it did not ask for them); they are still read. */
  readonly hideUsage: boolean;
}

/**
 * Sends a response to the harness while reading it. Bytes go to the harness first, unchanged; then
 * a stream is read event by event (the first output event marks the time to first token), with
 * the events that change no figure skimmed from their bytes. A JSON body is read once, when it
 * ends; kept bytes are decoded once, at the end.
 */
export class ResponseTap {
  private reader: StreamReader | undefined;
  private json: Buffer[] = [];
  private kept: Buffer[] = [];
  private keptBytes = 0;
  private firstOutput: number | undefined;
  private readerEnded = false;
  /** The last chunk, sent with the end of the response and read at `end`. */
  private unread: { buffer: Buffer; at: number } | undefined;
  status = 0;
  sse = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly api: ApiModule,
    private readonly started: number,
    private readonly options: TapOptions,
  ) {}

  /**
   * Sends the status and headers. They go out at once (a streaming client starts reading before
   * the first event) unless `bodyFollows`: body bytes are already at hand, and the headers leave
   * with them in one write.
   */
  head(status: number, headers: Record<string, string | string[]>, bodyFollows = false): void {
    this.status = status;
    const type = headers['content-type'];
    this.sse = typeof type === 'string' && type.includes('text/event-stream');
    if (this.sse) this.reader = new StreamReader(this.api.streamObserver(), this.options.hideUsage);
    this.res.writeHead(status, headers);
    if (!bodyFollows) this.res.flushHeaders();
  }

  /**
   * Writes a chunk; false when the harness's socket wants a pause (backpressure). With `last` the
   * chunk ends the response: the last bytes and the end of the body leave in one write.
   */
  write(chunk: Buffer | string, last = false): boolean {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (this.options.keepText && this.keptBytes < MAX_KEPT_BYTES) {
      this.kept.push(buffer);
      this.keptBytes += buffer.length;
    }
    const reader = this.reader;
    if (reader === undefined) {
      this.json.push(buffer);
      this.firstOutput ??= performance.now();
      return this.send(buffer, last);
    }
    if (this.options.hideUsage) {
      this.sawOutput(reader.push(buffer));
      if (last) this.endReader(reader);
      return this.send(reader.takeVisible(), last);
    }
    // The harness gets the bytes before the gateway reads them; the last ones are read at `end`.
    const ok = this.send(buffer, last);
    if (last) this.unread = { buffer, at: performance.now() };
    else this.sawOutput(reader.push(buffer));
    return ok;
  }

  /** Ends the response (unless the harness is gone or it has ended) and returns what it carried. */
  end(): CallObservation {
    const reader = this.reader;
    if (reader !== undefined && this.options.hideUsage && !this.readerEnded) {
      this.endReader(reader);
      this.send(reader.takeVisible(), false);
    }
    if (!this.res.writableEnded && !this.res.destroyed) this.res.end();
    if (reader !== undefined) {
      if (this.unread !== undefined) {
        // Its events went out when it was sent: that is when any first output reached the harness.
        if (reader.push(this.unread.buffer)) this.firstOutput ??= this.unread.at;
        this.unread = undefined;
      }
      if (!this.readerEnded) this.endReader(reader);
      return reader.observation();
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(this.json).toString('utf8'));
    } catch {
      body = undefined;
    }
    return this.api.observeJson(body);
  }

  private endReader(reader: StreamReader): void {
    this.readerEnded = true;
    this.sawOutput(reader.end());
  }

  private sawOutput(output: boolean): void {
    if (output && this.firstOutput === undefined) this.firstOutput = performance.now();
  }

  private send(bytes: Buffer | undefined, last: boolean): boolean {
    if (this.res.destroyed || this.res.writableEnded) return true;
    if (last) {
      this.res.end(bytes);
      return true;
    }
    return bytes === undefined || this.res.write(bytes);
  }

  /** Seconds from the request to the first output event, when there was one. */
  ttftSeconds(): number | undefined {
    return this.firstOutput === undefined ? undefined : Math.max(0, (this.firstOutput - this.started) / 1000);
  }

  /** The response as the upstream sent it (decoded once: a character split across chunks stays whole). */
  text(): string {
    return Buffer.concat(this.kept).toString('utf8');
  }
}
