import type { CallObservation, StreamObserver } from './protocol.ts';
import { frameData, type SseFrame, SseFramer } from './sse.ts';
import { isUsageOnlyChunk } from './usage-chunk.ts';
import { isRecord } from './wire-json.ts';

/**
 * Reads a response stream for an API's observer: frames the bytes into events, lets the observer
 * skim those it can tell from their bytes, and parses the rest once. With `hideUsage` it also says
 * which bytes the harness gets: every event but Chat Completions' usage-only chunks.
 */
export class StreamReader {
  private readonly framer = new SseFramer();
  /** The stream ended inside an event. */
  private cut = false;
  private output = false;
  /** With `hideUsage`: copies of the events of the current chunk the harness gets. */
  private visible: Buffer[] = [];

  constructor(
    private readonly observer: StreamObserver,
    private readonly hideUsage = false,
  ) {}

  /** Reads a chunk; true when an event it completed carries model output. */
  push(chunk: Buffer): boolean {
    this.output = false;
    this.framer.push(chunk, this.onFrame);
    return this.output;
  }

  /** Ends the stream (an event it ended inside of is read, if it can be); true as for `push`. */
  end(): boolean {
    this.output = false;
    this.framer.end(this.onFrame);
    return this.output;
  }

  /** With `hideUsage`: the bytes of the events completed since the last call that the harness gets. */
  takeVisible(): Buffer | undefined {
    const parts = this.visible;
    if (parts.length === 0) return undefined;
    this.visible = [];
    return parts.length === 1 ? parts[0] : Buffer.concat(parts);
  }

  observation(): CallObservation {
    const seen = this.observer.observation();
    if (this.cut && seen.error === undefined)
      seen.error = 'stream_truncated: the response stream ended inside an event';
    return seen;
  }

  private readonly onFrame = (frame: SseFrame): void => {
    const parsed = this.read(frame);
    if (this.hideUsage && (parsed === undefined || !isUsageOnlyChunk(parsed)))
      this.visible.push(Buffer.from(frame.buf.subarray(frame.start, frame.next)));
  };

  /** Reads one event (setting `output`); its data when it was parsed rather than skimmed. */
  private read(frame: SseFrame): Record<string, unknown> | undefined {
    const observer = this.observer;
    // An event the stream ended inside of may be cut short: it is always parsed.
    const skimmed = frame.unterminated ? undefined : observer.skim?.(frame);
    if (skimmed !== undefined) {
      this.output ||= skimmed;
      return undefined;
    }
    const data = frameData(frame);
    if (data === '[DONE]') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      if (frame.unterminated) this.cut = true;
      return undefined;
    }
    if (!isRecord(value)) return undefined;
    this.output = observer.onData(value, frame) || this.output;
    return value;
  }
}
