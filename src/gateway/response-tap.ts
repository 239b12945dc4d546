import type { ServerResponse } from 'node:http';
import type { ApiModule, CallObservation, StreamObserver } from './protocol.ts';
import { SseParser } from './sse.ts';

/** The most response text kept for a cassette or a recorded body (a runaway stream is cut). */
const MAX_KEPT_BYTES = 8 * 1024 * 1024;

/**
 * Sends a response to the harness while reading it: SSE events go through the API's stream
 * observer as they pass (the first output event marks the time to first token), a JSON body is
 * read when it ends. Bytes are written through unchanged.
 */
export class ResponseTap {
  private parser: SseParser | undefined;
  private observer: StreamObserver | undefined;
  private json: Buffer[] = [];
  private kept: string[] = [];
  private keptBytes = 0;
  private firstOutput: number | undefined;
  status = 0;
  sse = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly api: ApiModule,
    private readonly started: number,
    private readonly keepText: boolean,
  ) {}

  head(status: number, headers: Record<string, string | string[]>): void {
    this.status = status;
    const type = headers['content-type'];
    this.sse = typeof type === 'string' && type.includes('text/event-stream');
    if (this.sse) {
      this.parser = new SseParser();
      this.observer = this.api.streamObserver();
    }
    this.res.writeHead(status, headers);
    // Headers go out at once: a streaming client starts reading before the first event.
    this.res.flushHeaders();
  }

  /** Writes a chunk; false when the harness's socket wants a pause (backpressure). */
  write(chunk: Buffer | string): boolean {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (this.keepText && this.keptBytes < MAX_KEPT_BYTES) {
      this.kept.push(buffer.toString('utf8'));
      this.keptBytes += buffer.length;
    }
    if (this.parser !== undefined && this.observer !== undefined) {
      for (const event of this.parser.push(buffer)) {
        if (this.observer.onEvent(event) && this.firstOutput === undefined)
          this.firstOutput = performance.now();
      }
    } else {
      this.json.push(buffer);
      this.firstOutput ??= performance.now();
    }
    return this.res.write(buffer);
  }

  /** Reads a chunk the harness does not get (the usage chunk the gateway asked for itself). */
  observeOnly(chunk: string): void {
    // Kept for a cassette: a replay hides it again from a harness that did not ask for it.
    if (this.keepText && this.keptBytes < MAX_KEPT_BYTES) {
      this.kept.push(chunk);
      this.keptBytes += Buffer.byteLength(chunk);
    }
    if (this.parser === undefined || this.observer === undefined) return;
    for (const event of this.parser.push(chunk)) this.observer.onEvent(event);
  }

  /** Ends the response (unless the harness is gone) and returns what it carried. */
  end(): CallObservation {
    if (!this.res.writableEnded && !this.res.destroyed) this.res.end();
    return this.observation();
  }

  observation(): CallObservation {
    if (this.parser !== undefined && this.observer !== undefined) {
      for (const event of this.parser.end()) this.observer.onEvent(event);
      return this.observer.observation();
    }
    const text = Buffer.concat(this.json).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return this.api.observeJson(body);
  }

  /** Seconds from the request to the first output event, when there was one. */
  ttftSeconds(): number | undefined {
    return this.firstOutput === undefined ? undefined : Math.max(0, (this.firstOutput - this.started) / 1000);
  }

  text(): string {
    return this.kept.join('');
  }
}
