import type { Command } from 'commander';
import type { AtifTrajectory } from '../../formats/atif-schema.ts';
import type { CliIO } from '../io.ts';
import { registerIngest } from './ingest-command.ts';

const examples = `
Examples:
  $ harnesseval ingest-atif jobs/2026-12-01/fix-bug__abc/agent/trajectory.json
  $ harnesseval ingest-atif trajectory.json --format json > trace.json

Reads an ATIF trajectory (Harbor's Agent Trajectory Interchange Format, v1.x) and shows what
HarnessEval takes from it: model calls with tokens, tool calls, sub-agents, the final answer.
In a harness config, \`trace_file:\` may name an ATIF file too.`;

type AtifIngest = ReturnType<typeof import('../../formats/atif.ts').atifToTrace>;

export function register(program: Command, io: CliIO): void {
  registerIngest<{ doc: AtifTrajectory; result: AtifIngest }>(program, io, {
    name: 'ingest-atif',
    description: 'read an ATIF trajectory (Harbor) and show the model calls, tokens and tool calls in it',
    file: 'ATIF trajectory (.json)',
    examples,
    parse: async (text, shown) => {
      const [{ parseAtifText }, { atifToTrace }] = await Promise.all([
        import('../../formats/atif-file.ts'),
        import('../../formats/atif.ts'),
      ]);
      const doc = parseAtifText(text, shown);
      return { doc, result: atifToTrace(doc) };
    },
    json: ({ result }) => result,
    text: ({ doc, result }, shown) => {
      const { usage, trace } = result;
      const agents = [...new Set(trace.agent_invocations.map((i) => i.name))];
      return [
        `${shown}: ${doc.schema_version}, agent ${doc.agent.name} ${doc.agent.version}, ${doc.steps.length} steps`,
        `model calls: ${trace.agent_calls.length}  tokens: ${usage.tokens_in} in / ${usage.tokens_out} out (${usage.cached_tokens} cached)`,
        `cost: ${usage.cost_usd === null ? 'unknown (no step priced)' : `$${usage.cost_usd.toFixed(4)}`}`,
        `sub-agents: ${trace.agent_invocations.length}${agents.length > 0 ? ` (${agents.join(', ')})` : ''}`,
        `tool calls: ${result.tool_calls.length}`,
        ...result.tool_calls.map((t) => `  ${t.tool_name}${t.id ? ` (${t.id})` : ''} ${t.status}`),
        `final answer: ${JSON.stringify(result.output.slice(0, 200))}`,
      ];
    },
  });
}
