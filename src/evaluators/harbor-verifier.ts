import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expandEnvTemplate } from '../util/env-template.ts';
import { evaluatorOptionSchemas } from './catalog.ts';
import { evaluatorFrom } from './define.ts';
import { readRewards, rewardScore } from './harbor-reward.ts';
import { cannotJudge } from './result.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.harbor_verifier;

const TAIL_BYTES = 4096;

/** `${NAME:-default}` as Harbor resolves `[verifier].env`, then `${NAME}` (which must be set). */
function resolveEnv(env: Readonly<Record<string, string>>, host: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, template] of Object.entries(env)) {
    const defaulted = template.replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]*):-([^}]*)\}/g,
      (_m, v: string, d: string) => host[v] ?? d,
    );
    out[name] = expandEnvTemplate(defaulted, host, `verifier.env.${name}`);
  }
  return out;
}

/**
 * Harbor's verifier: after the agent, the task's tests are copied to /tests in the trial's
 * sandbox and `tests/test.sh` runs from the workdir; it writes /logs/verifier/reward.txt or
 * reward.json, which become the score (`reward`, or the mean of several) and the named scores.
 * A trial passes when its score is 1 (Harbor's binary convention).
 */
export const harborVerifier: EvaluatorDefinition<typeof options> = {
  name: 'harbor_verifier',
  description: "a Harbor task's tests/test.sh, run in the sandbox after the agent; its reward is the score",
  options,
  create(opts, environment) {
    return evaluatorFrom('harbor_verifier', async ({ sandbox, signal }) => {
      if (sandbox === undefined)
        return cannotJudge('a Harbor verifier runs only in a sandbox (the run has none)');
      let env: Record<string, string>;
      try {
        env = { PATH: environment.env['PATH'] ?? '/usr/bin:/bin', ...resolveEnv(opts.env, environment.env) };
      } catch (error) {
        return cannotJudge(error instanceof Error ? error.message : String(error));
      }
      for (const dir of opts.tests_dirs) await sandbox.copyIn(dir, '/tests');
      // A reward left by an earlier step must not count for this one.
      await sandbox.exec({
        argv: [
          'rm',
          '-f',
          '/logs/verifier/reward.txt',
          '/logs/verifier/reward.json',
          '/logs/verifier/rewards.json',
        ],
        timeoutMs: 10_000,
      });
      const run = await sandbox.exec({
        argv: ['bash', `/tests/${opts.script}`],
        cwd: opts.workdir,
        env,
        timeoutMs: opts.timeout_seconds * 1000,
        signal,
        tailBytes: TAIL_BYTES,
      });
      const details: Record<string, unknown> = {
        exit_code: run.exitCode,
        duration_seconds: run.durationSeconds,
        output_tail: run.outputTail,
      };
      if (run.spawnError !== undefined)
        return cannotJudge(`tests/${opts.script} could not start: ${run.spawnError}`, details);
      if (run.timedOut)
        return {
          score: 0,
          passed: false,
          explanation: `tests/${opts.script} timed out after ${opts.timeout_seconds} s`,
          details,
        };
      if (run.aborted) return cannotJudge('the verifier was stopped: the run was interrupted', details);
      const folder = await mkdtemp(join(tmpdir(), 'harnesseval-verifier-'));
      try {
        await sandbox.copyOut('/logs/verifier', join(folder, 'verifier')).catch(() => undefined);
        const read = await readRewards(join(folder, 'verifier'));
        if (!read.ok)
          return cannotJudge(
            `${read.reason} (tests/${opts.script} exited ${run.exitCode ?? run.signal})`,
            details,
          );
        const outside = Object.entries(read.rewards).filter(([, v]) => v < 0 || v > 1);
        if (outside.length > 0)
          return cannotJudge(
            `reward ${outside.map(([k, v]) => `${k}=${v}`).join(', ')} is outside 0..1, which HarnessEval scores cannot hold`,
            { ...details, rewards: read.rewards },
          );
        const score = rewardScore(read.rewards);
        const shown = Object.entries(read.rewards)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ');
        return {
          score,
          passed: score >= 1,
          explanation: `${read.file}: ${shown}`,
          details: { ...details, rewards: read.rewards, scores: read.rewards },
        };
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });
  },
};
