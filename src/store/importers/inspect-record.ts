import type { ToolCall } from '../../core/agent-output.ts';
import type { CriterionResult } from '../../core/evaluation.ts';
import type { RunRecordDraft } from '../../core/run-record.ts';
import { clip, errorKindFromText, isoTime, secondsBetween } from './experiment-draft.ts';
import {
  INSPECT_SAMPLE_FIELDS,
  type InspectModelUsage,
  type InspectSample,
  type InspectScore,
} from './inspect-schema.ts';
import type { UnmappedFields } from './unmapped.ts';

/** Inspect's `value_to_float` (scorer/_metric.py): C 1, P 0.5, I and N 0, yes/true 1, no/false 0, numbers. */
export function inspectValue(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string') return undefined;
  if (value === 'C') return 1;
  if (value === 'P') return 0.5;
  if (value === 'I' || value === 'N') return 0;
  const lower = value.toLowerCase();
  if (lower === 'yes' || lower === 'true') return 1;
  if (lower === 'no' || lower === 'false') return 0;
  const n = Number(value);
  return value.trim() !== '' && Number.isFinite(n) ? n : undefined;
}

/** A score's number: a scalar as Inspect reads it, a list or dict as the mean of its parts. */
function scoreNumber(score: InspectScore): number | undefined {
  const parts = Array.isArray(score.value)
    ? score.value
    : typeof score.value === 'object' && score.value !== null
      ? Object.values(score.value)
      : [score.value];
  const numbers = parts.map(inspectValue).filter((v): v is number => v !== undefined);
  return numbers.length === 0 ? undefined : numbers.reduce((a, b) => a + b, 0) / numbers.length;
}

/**
 * Tokens of one sample. Inspect's `input_tokens` excludes the cache for some providers (Anthropic:
 * total = input + output + cache reads + writes) and includes it for others (OpenAI): the total
 * tells which, and ours counts every input token.
 */
function usage(models: Readonly<Record<string, InspectModelUsage>>) {
  let tokensIn = 0;
  let tokensOut = 0;
  let cached = 0;
  let cost = 0;
  let unpriced = 0;
  for (const u of Object.values(models)) {
    const read = u.input_tokens_cache_read ?? 0;
    const write = u.input_tokens_cache_write ?? 0;
    const separate = read + write > 0 && u.total_tokens === u.input_tokens + u.output_tokens + read + write;
    tokensIn += u.input_tokens + (separate ? read + write : 0);
    tokensOut += u.output_tokens;
    cached += read;
    if (u.total_cost == null) unpriced++;
    else cost += u.total_cost;
  }
  const count = Object.keys(models).length;
  return {
    tokens_in: tokensIn,
    tokens_out: tokensOut,
    cached_tokens: cached,
    // Unpriced stays unpriced: no model priced is null; some priced is a partial cost, marked.
    cost_usd: count === 0 || unpriced === count ? null : cost,
    ...(unpriced > 0 && unpriced < count ? { unpriced_calls: unpriced } : {}),
    // No model usage at all is unknown, never 0 tokens (the token metrics leave it out and say so).
    ...(count === 0 ? { tokens_unknown: true as const } : {}),
  };
}

/** Tool calls from the assistant messages, with the tool messages' results. */
function toolCalls(sample: InspectSample): ToolCall[] {
  const results = new Map(
    sample.messages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id ?? '', m]),
  );
  return sample.messages.flatMap((m) =>
    (m.tool_calls ?? []).map((call) => {
      const result = results.get(call.id);
      return {
        tool_name: call.function,
        args: call.arguments,
        id: call.id,
        status: result?.error ? ('error' as const) : ('success' as const),
        ...(result?.content === undefined ? {} : { result: result.content }),
      };
    }),
  );
}

export function inspectRecord(
  sample: InspectSample,
  options: {
    readonly primary: string | undefined;
    readonly passThreshold: number;
    readonly model: string;
    readonly harness: { name: string; version: string };
    readonly fallbackTime: string;
    readonly unmapped: UnmappedFields;
  },
): RunRecordDraft {
  const { unmapped } = options;
  unmapped.unknownKeys(sample, INSPECT_SAMPLE_FIELDS, 'samples[].');
  if (sample.events !== undefined && sample.events.length > 0)
    unmapped.note(
      'samples[].events',
      'the transcript events are not mapped (tool calls are read from the messages)',
    );
  if (sample.attachments !== undefined && Object.keys(sample.attachments).length > 0)
    unmapped.note('samples[].attachments', 'not kept (attachment:// references stay as they are)');
  const scores = sample.scores ?? {};
  const criteria: CriterionResult[] = Object.entries(scores).map(([name, score]) => {
    const value = scoreNumber(score);
    const unit = value !== undefined && value >= 0 && value <= 1;
    if (!unit)
      unmapped.note(
        `samples[].scores.${name}.value`,
        'not a number in 0..1: kept in criterion details, not a score',
      );
    return {
      id: name,
      verification: 'automated',
      status: value === undefined ? 'error' : value >= options.passThreshold ? 'passed' : 'failed',
      score: unit ? value : null,
      explanation: score.explanation ?? '',
      grades: [],
      details: {
        value: score.value,
        ...(score.answer == null ? {} : { answer: score.answer }),
        ...(score.metadata == null ? {} : { metadata: score.metadata }),
      },
    };
  });
  const primaryName =
    options.primary !== undefined && options.primary in scores ? options.primary : Object.keys(scores)[0];
  const main = primaryName === undefined ? undefined : scoreNumber(scores[primaryName]!);
  const error = sample.error;
  const errorText = error == null ? undefined : `${error.message}\n${error.traceback}`;
  const kind = errorText === undefined ? undefined : errorKindFromText(errorText);
  const verdict: Pick<RunRecordDraft, 'outcome' | 'error' | 'error_kind'> =
    error != null
      ? { outcome: 'error', error: clip(error.message, 1000), error_kind: kind ?? 'agent' }
      : main === undefined
        ? { outcome: 'error', error: 'the sample has no score', error_kind: 'invalid_output' }
        : { outcome: main >= options.passThreshold ? 'pass' : 'fail' };
  const u = usage(sample.model_usage);
  const tools = toolCalls(sample);
  return {
    run_id: sample.uuid ?? '',
    task_id: String(sample.id),
    // Inspect counts epochs from 1.
    epoch: sample.epoch - 1,
    attempts: 1 + (sample.error_retries?.length ?? 0),
    harness_config: { ...options.harness, model: options.model },
    timestamp: isoTime(sample.started_at) ?? options.fallbackTime,
    duration_seconds: sample.total_time ?? secondsBetween(sample.started_at, sample.completed_at) ?? 0,
    cost_usd: u.cost_usd,
    ...verdict,
    ...(typeof sample.input === 'string' ||
    (typeof sample.input === 'object' && sample.input !== null && !Array.isArray(sample.input))
      ? { input: sample.input as string }
      : { input: { messages: sample.input } }),
    ...(sample.target === undefined ? {} : { expected: sample.target }),
    output: {
      output: sample.output?.completion ?? '',
      latency: sample.working_time ?? sample.total_time ?? 0,
      tool_calls: tools,
      usage: u,
      metadata: {},
      ...(verdict.error === undefined ? {} : { error: verdict.error, error_kind: verdict.error_kind }),
    },
    criteria,
    metrics: {
      tokens_in: u.tokens_in,
      tokens_out: u.tokens_out,
      acceptance_criteria_total: criteria.length,
      acceptance_criteria_passed: criteria.filter((c) => c.status === 'passed').length,
    },
    scores: main !== undefined && main >= 0 && main <= 1 ? { overall: main } : {},
    metadata: {
      inspect: {
        sample_id: sample.id,
        epoch: sample.epoch,
        ...(primaryName === undefined ? {} : { main_score: primaryName }),
        model_usage: sample.model_usage,
        messages: sample.messages.length,
        ...(Object.keys(sample.metadata).length === 0 ? {} : { sample_metadata: sample.metadata }),
        ...(sample.choices == null ? {} : { choices: sample.choices }),
        ...(sample.limit == null ? {} : { limit: sample.limit }),
        ...(error == null
          ? {}
          : { error: { message: clip(error.message), traceback: clip(error.traceback) } }),
        ...(sample.store === undefined || Object.keys(sample.store).length === 0
          ? {}
          : { store: sample.store }),
        ...(sample.sandbox == null ? {} : { sandbox: sample.sandbox }),
      },
    },
  };
}
