import { resolve } from 'node:path';
import type { Command } from 'commander';
import { HarnessEvalError } from '../../core/errors.ts';
import { CliExit, EXIT, reportError } from '../exit.ts';
import type { CliIO } from '../io.ts';

const examples = `
Examples:
  $ harnesseval ingest-atif jobs/2026-12-01/fix-bug__abc/agent/trajectory.json
  $ harnesseval ingest-atif trajectory.json --format json > trace.json

Reads an ATIF trajectory (Harbor's Agent Trajectory Interchange Format, v1.x) and shows what
HarnessEval takes from it: model calls with tokens, tool calls, sub-agents, the final answer.
In a harness config, \`trace_file:\` may name an ATIF file too.`;

export function register(program: Command, io: CliIO): void {
  program
    .command('ingest-atif')
    .description('read an ATIF trajectory (Harbor) and show the model calls, tokens and tool calls in it')
    .argument('<file>', 'ATIF trajectory (.json)')
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
    const [{ readAtifFile }, { atifToTrace }] = await Promise.all([
      import('../../formats/atif-file.ts'),
      import('../../formats/atif.ts'),
    ]);
    const doc = await readAtifFile(path, shown);
    const result = atifToTrace(doc);
    if (format === 'json') {
      io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return EXIT.ok;
    }
    const { usage, trace } = result;
    const lines = [
      `${shown}: ${doc.schema_version}, agent ${doc.agent.name} ${doc.agent.version}, ${doc.steps.length} steps`,
      `model calls: ${trace.agent_calls.length}  tokens: ${usage.tokens_in} in / ${usage.tokens_out} out (${usage.cached_tokens} cached)`,
      `cost: ${usage.cost_usd === null ? 'unknown (no step priced)' : `$${usage.cost_usd.toFixed(4)}`}`,
      `sub-agents: ${trace.agent_invocations.length}${trace.agent_invocations.length ? ` (${[...new Set(trace.agent_invocations.map((i) => i.name))].join(', ')})` : ''}`,
      `tool calls: ${result.tool_calls.length}`,
      ...result.tool_calls.map((t) => `  ${t.tool_name}${t.id ? ` (${t.id})` : ''} ${t.status}`),
      `final answer: ${JSON.stringify(result.output.slice(0, 200))}`,
    ];
    io.stdout.write(`${lines.join('\n')}\n`);
    return EXIT.ok;
  } catch (error) {
    return reportError(io, error);
  }
}
