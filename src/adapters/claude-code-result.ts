import { clip, count, isRecord, type JsonRecord, record, records, text } from './json-fields.ts';
import type { ParsedTranscript } from './transcript.ts';

/** Result subtypes that mean the harness stopped itself (a circuit breaker), not that it failed. */
const BREAKER_SUBTYPES = new Set([
  'error_max_turns',
  'error_max_budget_usd',
  'error_max_structured_output_retries',
]);

/** Reads the final `result` event: breakers, permission denials, reported cost, and whether it failed. */
export function withResult(parsed: ParsedTranscript, result: JsonRecord): ParsedTranscript {
  const subtype = text(result['subtype']) ?? 'unknown';
  const terminal = text(result['terminal_reason']);
  const { trace } = parsed;
  if (subtype !== 'success')
    trace.circuit_breakers.push({
      type: subtype,
      ...(terminal === undefined ? {} : { trigger: terminal }),
      resolution: 'stopped',
    });
  else if (terminal !== undefined && terminal !== 'completed')
    trace.circuit_breakers.push({ type: `terminal_reason:${terminal}`, trigger: terminal });
  for (const denial of records(result['permission_denials']))
    trace.human.push({
      action: 'permission',
      kind: 'unplanned',
      minutes: 0,
      note: `denied ${text(denial['tool_name']) ?? 'a tool'}${typeof denial['tool_use_id'] === 'string' ? ` (${denial['tool_use_id']})` : ''}`,
    });
  const reported = reportedTotals(result);
  const metadata: Record<string, unknown> = {
    ...parsed.metadata,
    subtype,
    ...(terminal === undefined ? {} : { terminal_reason: terminal }),
    ...(typeof result['num_turns'] === 'number' ? { num_turns: result['num_turns'] } : {}),
    ...(typeof result['total_cost_usd'] === 'number' ? { reported_cost_usd: result['total_cost_usd'] } : {}),
    ...(typeof result['duration_api_ms'] === 'number' ? { duration_api_ms: result['duration_api_ms'] } : {}),
    ...(isRecord(result['modelUsage']) ? { model_usage: result['modelUsage'] } : {}),
  };
  // Every figure right or flagged: the CLI's own totals disagreeing with the calls is said, not hidden.
  if (
    reported !== undefined &&
    (reported.tokens_in !== parsed.usage.tokens_in || reported.tokens_out !== parsed.usage.tokens_out)
  )
    metadata['usage_mismatch'] = {
      calls: { tokens_in: parsed.usage.tokens_in, tokens_out: parsed.usage.tokens_out },
      reported,
    };
  const failed = result['is_error'] === true && !BREAKER_SUBTYPES.has(subtype);
  const message =
    text(result['result']) ??
    (records(result['errors']).length > 0 ? JSON.stringify(result['errors']) : subtype);
  return {
    ...parsed,
    metadata,
    ...(failed
      ? { error: { kind: 'agent' as const, message: `claude-code ${subtype}: ${clip(message, 500)}` } }
      : {}),
  };
}

/** The CLI's own token totals over every model (`modelUsage`), in our convention. */
function reportedTotals(result: JsonRecord): { tokens_in: number; tokens_out: number } | undefined {
  if (!isRecord(result['modelUsage'])) return undefined;
  let tokensIn = 0;
  let tokensOut = 0;
  for (const usage of Object.values(result['modelUsage'])) {
    const u = record(usage);
    tokensIn +=
      count(u['inputTokens']) + count(u['cacheReadInputTokens']) + count(u['cacheCreationInputTokens']);
    tokensOut += count(u['outputTokens']);
  }
  return { tokens_in: tokensIn, tokens_out: tokensOut };
}
