/**
 * The reference harness of the support suite: it replays the reference solution of the task
 * (solutions/<task id>.yaml, the calls a good agent makes) against the support-desk server in the
 * trial's workspace. The proof test runs it to show that every automated criterion passes with
 * the solution. `module: ./reference.ts#replaySolution` (function adapter).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';
import type { FunctionAgentContext } from '../../../src/adapters/function.ts';
import type { AgentOutputDraft } from '../../../src/core/agent-output.ts';
import { DeskSession } from './desk-session.ts';

const SolutionSchema = z
  .object({
    steps: z
      .array(
        z
          .object({ tool: z.string().min(1), arguments: z.record(z.string(), z.unknown()).default({}) })
          .strict(),
      )
      .min(1),
    summary: z.string().min(1),
  })
  .strict();

const solutionsDir = fileURLToPath(new URL('../solutions/', import.meta.url));

export async function replaySolution(_input: unknown, ctx: FunctionAgentContext): Promise<AgentOutputDraft> {
  if (ctx.workspace === undefined) return { output: null, error: 'no workspace', error_kind: 'config' };
  const file = `${solutionsDir}${ctx.task.id}.yaml`;
  const solution = SolutionSchema.parse(parse(await readFile(file, 'utf8')));
  // In process: the proof is about the criteria; the scripted agent exercises the stdio server.
  const desk = await DeskSession.inProcess(ctx.workspace, ctx.signal);
  try {
    for (const step of solution.steps) {
      const outcome = await desk.call(step.tool, step.arguments);
      if (!outcome.ok)
        return {
          output: null,
          tool_calls: desk.calls,
          error: `${step.tool}: ${outcome.message}`,
          error_kind: 'agent',
        };
    }
    return { output: solution.summary, tool_calls: desk.calls };
  } finally {
    await desk.close();
  }
}
