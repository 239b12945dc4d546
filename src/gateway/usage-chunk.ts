import type { Exchange } from './exchange.ts';
import { isRecord } from './protocol.ts';
import type { ResponseTap } from './response-tap.ts';
import { type SseParser, sseText } from './sse.ts';

/**
 * A streamed Chat Completions response carries a usage chunk (no choices) only when the request
 * asked (`stream_options.include_usage`). The gateway asks on the harness's behalf and hides the
 * chunk from a harness that did not, so it sees the stream it asked for.
 */
function isUsageOnlyChunk(data: string): boolean {
  try {
    const chunk: unknown = JSON.parse(data);
    return (
      isRecord(chunk) &&
      Array.isArray(chunk['choices']) &&
      chunk['choices'].length === 0 &&
      isRecord(chunk['usage'])
    );
  } catch {
    return false;
  }
}

/** Whether the harness must not see usage-only chunks (it did not ask for them). */
export function hidesUsage(ex: Exchange): boolean {
  return ex.api.api === 'openai-chat' && ex.view.stream && ex.view.include_usage !== true;
}

/** Writes SSE text event by event: the tap reads every event, the harness gets all but usage-only ones. */
export function writeWithoutUsage(tap: ResponseTap, parser: SseParser, chunk: Buffer | string): boolean {
  let ok = true;
  for (const event of parser.push(chunk)) {
    const text = sseText(event.data, event.event);
    if (isUsageOnlyChunk(event.data)) tap.observeOnly(text);
    else ok = tap.write(text) && ok;
  }
  return ok;
}
