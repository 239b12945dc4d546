import type { Command } from 'commander';
import { HarnessEvalError } from '../../core/errors.ts';
import type { OtelIngest } from '../../instrument/otel.ts';
import type { PriceTable } from '../../instrument/pricing.ts';
import type { CliIO } from '../io.ts';
import { registerIngest } from './ingest-command.ts';

const examples = `
Examples:
  $ harnesseval ingest-otel traces/run-42.json
  $ harnesseval ingest-otel otel-export.jsonl --format json > trace-summary.json

Reads OTLP/JSON (one document, or JSON lines from the collector's file exporter) and shows what
HarnessEval takes from GenAI spans: agent invocations, model calls with tokens, tool calls, errors.`;

type Priced = ReturnType<typeof import('../../instrument/trial-usage.ts').mergeUsage>;

interface OtelView {
  readonly result: OtelIngest;
  readonly cost: Priced;
  readonly prices: PriceTable;
}

async function parse(text: string, shown: string): Promise<OtelView> {
  const { ingestOtlp, parseOtlpText } = await import('../../instrument/otel.ts');
  const parsed = parseOtlpText(text);
  if ('line' in parsed) {
    throw new HarnessEvalError('invalid_input', '', {
      diagnostics: [
        {
          file: shown,
          line: parsed.line,
          col: 1,
          path: '',
          message: `not JSON: ${parsed.error}`,
          severity: 'error',
        },
      ],
    });
  }
  let result: OtelIngest;
  try {
    result = ingestOtlp(parsed.documents);
  } catch (error) {
    throw new HarnessEvalError(
      'invalid_input',
      `${shown}: not an OTLP/JSON trace (expected {"resourceSpans": [...]})`,
      { cause: error },
    );
  }
  const [{ mergeUsage }, { DEFAULT_PRICES }] = await Promise.all([
    import('../../instrument/trial-usage.ts'),
    import('../../instrument/pricing.ts'),
  ]);
  // Priced as a run would price it, from the built-in table (a harness's `pricing:` is not known here).
  const cost = mergeUsage({ calls: result.agentCalls, costs: result.costs }, DEFAULT_PRICES);
  return { result, cost, prices: DEFAULT_PRICES };
}

function text({ result, cost, prices }: OtelView, shown: string): string[] {
  const usd = cost.usage.cost_usd;
  const costLine =
    usd === null
      ? 'cost: unknown (no call reported a cost or has a known price)'
      : `cost: $${usd.toPrecision(4)}${cost.status === 'partial' ? ` partial: ${cost.usage.unpriced_calls} calls unpriced` : ''} (prices as of ${prices.as_of})`;
  const agents = [...new Set(result.invocations.map((i) => i.name))];
  const breakers = result.circuitBreakers.map((b) => b.type);
  return [
    `${shown}: ${result.spans} spans`,
    `agent invocations: ${result.invocations.length}${agents.length > 0 ? ` (${agents.join(', ')})` : ''}`,
    `model calls: ${result.agentCalls.length}  tokens: ${result.tokensIn} in / ${result.tokensOut} out`,
    ...result.agentCalls.map(
      (c) =>
        `  ${c.role}: ${c.model ?? 'unknown model'} ${c.tokens_in}/${c.tokens_out}${c.error ? ` error: ${c.error}` : ''}`,
    ),
    `tool calls: ${result.toolCalls.length}`,
    ...result.toolCalls.map((t) => `  ${t.tool_name}${t.id ? ` (${t.id})` : ''} ${t.status}`),
    costLine,
    `operator prompts: ${result.prompts.length}  human touchpoints: ${result.human.length}  circuit breakers: ${breakers.length}${breakers.length > 0 ? ` (${breakers.join(', ')})` : ''}`,
    ...(result.firstPassApproval === undefined
      ? []
      : [`first-pass approval: ${result.firstPassApproval ? 'yes' : 'no'}`]),
    `errors: ${result.errors.length}`,
    ...result.errors.map((e) => `  ${e}`),
    ...(result.problems.length === 0 ? [] : [`harnesseval events not counted: ${result.problems.length}`]),
    ...result.problems.map((p) => `  ${p}`),
  ];
}

export function register(program: Command, io: CliIO): void {
  registerIngest(program, io, {
    name: 'ingest-otel',
    description:
      'read an OpenTelemetry (OTLP/JSON) trace and show the agent calls, tokens and tool calls in it',
    file: 'OTLP/JSON file',
    examples,
    parse,
    json: ({ result, cost }) => ({ ...result, cost: { ...cost.usage, status: cost.status } }),
    text,
  });
}
