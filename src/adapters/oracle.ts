import type { Task } from '../core/task.ts';
import { expandEnvTemplate } from '../util/env-template.ts';
import { abortedOutput, failedOutput, secondsSince } from './agent-result.ts';
import { adapterOptionSchemas } from './catalog.ts';
import type { AdapterDefinition, AgentV1, TrialContext } from './types.ts';

/** Without a trial timeout the oracle still ends: Harbor's default agent timeout is none, ours is not. */
const MAX_SOLVE_MS = 24 * 3600 * 1000;
const TAIL_BYTES = 8192;

function harborMeta(task: Task): Record<string, unknown> {
  const meta = task.metadata['harbor'];
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : {};
}

/** The solution folder of the task, or of the step being run (Harbor's steps/<name>/solution). */
function solutionFor(ctx: TrialContext): string | undefined {
  if (ctx.step !== undefined) {
    const steps = harborMeta(ctx.task)['step_solutions'];
    if (steps !== null && typeof steps === 'object') {
      const dir = (steps as Record<string, unknown>)[ctx.step.id];
      if (typeof dir === 'string') return dir;
    }
  }
  return ctx.task.files['solution'];
}

function solutionEnv(task: Task, host: NodeJS.ProcessEnv): Record<string, string> {
  const env = harborMeta(task)['solution_env'];
  const out: Record<string, string> = {};
  if (env === null || typeof env !== 'object') return out;
  for (const [name, value] of Object.entries(env))
    if (typeof value === 'string') out[name] = expandEnvTemplate(value, host, `solution.env.${name}`);
  return out;
}

/**
 * Harbor's `oracle` agent (src/harbor/agents/oracle.py): copies the task's solution/ to /solution
 * in the trial's sandbox and runs solve.sh from the workdir, so the verifier can show the task is
 * solvable. Needs a sandbox; a task without a solution is an error of the trial.
 */
export const oracleAdapter: AdapterDefinition<typeof adapterOptionSchemas.oracle> = {
  name: 'oracle',
  description: "Harbor's oracle: the task's own solution/solve.sh, run in the sandbox.",
  options: adapterOptionSchemas.oracle,
  async create(_options, environment): Promise<AgentV1> {
    return {
      specificationVersion: 'v1',
      name: environment.harness.name,
      reports: 'response',
      async run(_input, ctx) {
        const started = performance.now();
        if (ctx.signal.aborted) return abortedOutput(ctx.signal);
        if (ctx.sandbox === undefined)
          return failedOutput(
            'config',
            'the oracle runs only in a sandbox (--sandbox bwrap, docker or podman)',
          );
        const solution = solutionFor(ctx);
        if (solution === undefined)
          return failedOutput('config', `task ${ctx.task.id} has no solution/ folder for the oracle`);
        let env: Record<string, string>;
        try {
          env = {
            PATH: environment.env['PATH'] ?? '/usr/bin:/bin',
            DEBIAN_FRONTEND: 'noninteractive',
            ...solutionEnv(ctx.task, environment.env),
          };
        } catch (error) {
          return failedOutput('config', error instanceof Error ? error.message : String(error));
        }
        await ctx.sandbox.copyIn(solution, '/solution');
        const run = await ctx.sandbox.exec({
          argv: ['bash', '/solution/solve.sh'],
          cwd: ctx.workspace,
          env,
          timeoutMs: MAX_SOLVE_MS,
          signal: ctx.signal,
          tailBytes: TAIL_BYTES,
        });
        const latency = secondsSince(started);
        const metadata = { exit_code: run.exitCode, ...(run.signal === null ? {} : { signal: run.signal }) };
        if (run.aborted) return abortedOutput(ctx.signal, { latency, metadata });
        if (run.spawnError !== undefined)
          return failedOutput('config', `solve.sh could not start: ${run.spawnError}`, { latency });
        // A failing solve.sh is the verifier's to judge, as in Harbor; its status is kept.
        return {
          output: run.outputTail,
          latency,
          tool_calls: [],
          usage: { tokens_in: 0, tokens_out: 0, cached_tokens: 0, cost_usd: 0 },
          metadata,
        };
      },
    };
  },
};
