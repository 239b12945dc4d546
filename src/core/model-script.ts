import { z } from 'zod';

/**
 * A model script: the answers a scripted model gives, turn by turn, so that a real harness (Claude
 * Code, Codex, your own) can be run offline and deterministically through the gateway, with token
 * figures known in advance. Strings may use `{{workspace}}` (the trial's workspace) and `{{turn}}`.
 */
const count = z.number().int().nonnegative();

/** Token counts of one answer. `input_tokens` exclude cache reads and writes; reasoning is part of output. */
export const ScriptUsageSchema = z
  .object({
    input_tokens: count.optional(),
    output_tokens: count.optional(),
    cache_read_tokens: count.optional(),
    cache_write_tokens: count.optional(),
    reasoning_tokens: count.optional(),
  })
  .strict();

export const ScriptToolCallSchema = z
  .object({
    name: z.string().min(1),
    /** JSON arguments, or the text of a free-form tool (Codex's `apply_patch`). */
    input: z.union([z.record(z.string(), z.unknown()), z.string()]).default({}),
    id: z.string().min(1).optional(),
  })
  .strict();

/** When an entry answers: every condition given must hold for the request. */
export const ScriptPredicateSchema = z
  .object({
    api: z.enum(['anthropic-messages', 'openai-chat', 'openai-responses']).optional(),
    model: z.string().min(1).optional(),
    last_user_contains: z.string().optional(),
    system_contains: z.string().optional(),
    /** A tool result in the request's latest turn contains this text. */
    tool_result_contains: z.string().optional(),
    /** A tool result in the latest turn is (true) or none is (false) marked as an error. */
    tool_result_error: z.boolean().optional(),
    /** The request offers this tool. */
    has_tool: z.string().min(1).optional(),
  })
  .strict();

export const ScriptErrorSchema = z
  .object({
    status: z.number().int().min(400).max(599),
    type: z.string().min(1).default('api_error'),
    message: z.string().default('scripted error'),
  })
  .strict();

export const ScriptTurnSchema = z
  .object({
    /** Answer the n-th request of the trial (1-based). */
    turn: z.number().int().positive().optional(),
    when: ScriptPredicateSchema.optional(),
    /** Keep the entry usable after it answered (a `when` that answers every matching request). */
    repeat: z.boolean().default(false),
    text: z.string().optional(),
    reasoning: z.string().optional(),
    tool_calls: z.array(ScriptToolCallSchema).default([]),
    stop_reason: z.string().min(1).optional(),
    usage: ScriptUsageSchema.optional(),
    /** Answer with an API error instead (e.g. 529 overloaded, 429 rate limited). */
    error: ScriptErrorSchema.optional(),
    /** Wait this long before answering. */
    delay_ms: z.number().int().nonnegative().max(3_600_000).optional(),
    /** Never answer (a hung model: the harness waits until its trial times out). */
    hang: z.boolean().default(false),
  })
  .strict()
  .superRefine((turn, ctx) => {
    const answers =
      turn.text !== undefined || turn.tool_calls.length > 0 || turn.error !== undefined || turn.hang;
    if (!answers)
      ctx.addIssue({ code: 'custom', message: 'a turn needs `text`, `tool_calls`, `error` or `hang: true`' });
  });

export const ModelScriptSchema = z
  .object({
    name: z.string().min(1).optional(),
    description: z.string().optional(),
    /** Usage of every turn that does not give its own (field by field). */
    usage: ScriptUsageSchema.default({}),
    turns: z.array(ScriptTurnSchema).min(1),
    /** Answers any request no entry matches; without it such a request gets a `script_exhausted` error. */
    fallback: ScriptTurnSchema.optional(),
  })
  .strict();
export type ModelScript = z.infer<typeof ModelScriptSchema>;
export type ScriptTurn = z.infer<typeof ScriptTurnSchema>;
export type ScriptPredicate = z.infer<typeof ScriptPredicateSchema>;
export type ScriptUsage = z.infer<typeof ScriptUsageSchema>;
