import { z } from 'zod';
import type { AgentCall } from '../core/agent-output.ts';

export const TokenCountsSchema = z.object({
  input_tokens: z.number().nonnegative(),
  output_tokens: z.number().nonnegative(),
  cache_read_tokens: z.number().nonnegative(),
  cache_write_tokens: z.number().nonnegative(),
  reasoning_tokens: z.number().nonnegative(),
});

/** One model call as the gateway saw it: what was asked, what came back, and how fast. */
export const GatewayCallSchema = z.object({
  route: z.string(),
  /** 1-based order of the call within its route. */
  seq: z.number().int().positive(),
  api: z.enum(['anthropic-messages', 'openai-chat', 'openai-responses']),
  provider: z.enum(['anthropic', 'openai']),
  /** Where the answer came from: `script`, `cassette`, or the upstream's origin. */
  upstream: z.string(),
  model: z.string(),
  /** The role the harness named in `x-harnesseval-role`, when it did. */
  role: z.string().optional(),
  response_id: z.string().optional(),
  stream: z.boolean(),
  status: z.number().int(),
  started_at: z.string(),
  latency_seconds: z.number().nonnegative(),
  /** Seconds from the request to the first output event (text, tool call) sent to the harness. */
  ttft_seconds: z.number().nonnegative().optional(),
  usage: TokenCountsSchema,
  /** False when the response carried no usage (a stream cut short): the token counts are unknown. */
  usage_reported: z.boolean(),
  stop_reason: z.string().optional(),
  tool_calls: z.array(z.object({ id: z.string().optional(), name: z.string(), input: z.unknown() })),
  /** USD from the price table; absent when the model has no price or the usage is unknown. */
  cost_usd: z.number().nonnegative().optional(),
  error: z.string().optional(),
  /** Only with `record_bodies: true`, secrets redacted. */
  request_body: z.unknown().optional(),
  response_body: z.string().optional(),
});
export type GatewayCall = z.infer<typeof GatewayCallSchema>;

/** Tokens in our convention: `tokens_in` counts every prompt token, cached or not. */
export function promptTokens(call: Pick<GatewayCall, 'usage'>): number {
  return call.usage.input_tokens + call.usage.cache_read_tokens + call.usage.cache_write_tokens;
}

/**
 * A gateway call as a trace agent call. The cost is left to the runner's price table (the same
 * one, with the harness's overrides), so a record says where each figure came from.
 */
export function toAgentCall(call: GatewayCall): AgentCall {
  return {
    role: call.role ?? 'agent',
    model: call.model,
    provider: call.provider,
    tokens_in: promptTokens(call),
    tokens_out: call.usage.output_tokens,
    cached_tokens: call.usage.cache_read_tokens,
    cache_write_tokens: call.usage.cache_write_tokens,
    duration_seconds: call.latency_seconds,
    at: call.started_at,
    ...(call.error === undefined ? {} : { error: call.error }),
    metadata: {
      source: 'gateway',
      api: call.api,
      upstream: call.upstream,
      seq: call.seq,
      http_status: call.status,
      stream: call.stream,
      reasoning_tokens: call.usage.reasoning_tokens,
      tool_calls_requested: call.tool_calls.map((t) => t.name),
      ...(call.usage_reported ? {} : { usage_unknown: true }),
      ...(call.response_id === undefined ? {} : { response_id: call.response_id }),
      ...(call.ttft_seconds === undefined ? {} : { ttft_seconds: call.ttft_seconds }),
      ...(call.stop_reason === undefined ? {} : { stop_reason: call.stop_reason }),
      ...(call.request_body === undefined ? {} : { request_body: call.request_body }),
      ...(call.response_body === undefined ? {} : { response_body: call.response_body }),
    },
  };
}
