import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { HarnessEvalError } from '../../core/errors.ts';
import { CliExit, EXIT, reportError } from '../exit.ts';
import type { CliIO } from '../io.ts';

const examples = `
Examples:
  $ harnesseval ingest-otel traces/run-42.json
  $ harnesseval ingest-otel otel-export.jsonl --format json > trace-summary.json

Reads OTLP/JSON (one document, or JSON lines from the collector's file exporter) and shows what
HarnessEval takes from GenAI spans: agent invocations, model calls with tokens, tool calls, errors.`;

export function register(program: Command, io: CliIO): void {
  program
    .command('ingest-otel')
    .description(
      'read an OpenTelemetry (OTLP/JSON) trace and show the agent calls, tokens and tool calls in it',
    )
    .argument('<file>', 'OTLP/JSON file')
    .option('--format <format>', 'text or json', 'text')
    .addHelpText('after', examples)
    .action(async (file: string, flags: { format: string }) => {
      const status = await ingest(resolve(io.cwd, file), file, flags.format, io);
      if (status !== EXIT.ok) throw new CliExit(status);
    });
}

async function ingest(path: string, shown: string, format: string, io: CliIO): Promise<number> {
  try {
    if (format !== 'text' && format !== 'json')
      throw new HarnessEvalError('usage', `--format must be text or json, not ${format}`);
    const { ingestOtlp, parseOtlpText } = await import('../../instrument/otel.ts');
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new HarnessEvalError('not_found', `cannot read ${shown}`, { cause: error });
    }
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
    let result: ReturnType<typeof ingestOtlp>;
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
    if (format === 'json') {
      io.stdout.write(
        `${JSON.stringify({ ...result, cost: { ...cost.usage, status: cost.status } }, null, 2)}\n`,
      );
      return EXIT.ok;
    }
    const usd = cost.usage.cost_usd;
    const costLine =
      usd === null
        ? 'cost: unknown (no call reported a cost or has a known price)'
        : `cost: $${usd.toPrecision(4)}${cost.status === 'partial' ? ` partial: ${cost.usage.unpriced_calls} calls unpriced` : ''} (prices as of ${DEFAULT_PRICES.as_of})`;
    const lines = [
      `${shown}: ${result.spans} spans`,
      `agent invocations: ${result.invocations.length}${result.invocations.length ? ` (${[...new Set(result.invocations.map((i) => i.name))].join(', ')})` : ''}`,
      `model calls: ${result.agentCalls.length}  tokens: ${result.tokensIn} in / ${result.tokensOut} out`,
      ...result.agentCalls.map(
        (c) =>
          `  ${c.role}: ${c.model ?? 'unknown model'} ${c.tokens_in}/${c.tokens_out}${c.error ? ` error: ${c.error}` : ''}`,
      ),
      `tool calls: ${result.toolCalls.length}`,
      ...result.toolCalls.map((t) => `  ${t.tool_name}${t.id ? ` (${t.id})` : ''} ${t.status}`),
      costLine,
      `operator prompts: ${result.prompts.length}  human touchpoints: ${result.human.length}  circuit breakers: ${result.circuitBreakers.length}${result.circuitBreakers.length ? ` (${result.circuitBreakers.map((b) => b.type).join(', ')})` : ''}`,
      ...(result.firstPassApproval === undefined
        ? []
        : [`first-pass approval: ${result.firstPassApproval ? 'yes' : 'no'}`]),
      `errors: ${result.errors.length}`,
      ...result.errors.map((e) => `  ${e}`),
      ...(result.problems.length === 0 ? [] : [`harnesseval events not counted: ${result.problems.length}`]),
      ...result.problems.map((p) => `  ${p}`),
    ];
    io.stdout.write(`${lines.join('\n')}\n`);
    return EXIT.ok;
  } catch (error) {
    return reportError(io, error);
  }
}
