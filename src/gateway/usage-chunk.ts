import type { Exchange } from './exchange.ts';
import { isRecord } from './wire-json.ts';

/**
 * A streamed Chat Completions response carries a usage chunk (no choices) only when the request
 * asked (`stream_options.include_usage`). The gateway asks on the harness's behalf and hides the
 * chunk from a harness that did not, so it sees the stream it asked for.
 */
export function isUsageOnlyChunk(chunk: Record<string, unknown>): boolean {
  return Array.isArray(chunk['choices']) && chunk['choices'].length === 0 && isRecord(chunk['usage']);
}

/** Whether the harness must not see usage-only chunks (it did not ask for them). */
export function hidesUsage(ex: Exchange): boolean {
  return ex.api.api === 'openai-chat' && ex.view.stream && ex.view.include_usage !== true;
}
