import { resolve } from 'node:path';
import { HarnessConfigSchema } from '../../core/harness-config.ts';
import { type CliIO, invocationPlugins } from '../io.ts';

export interface OracleFailure {
  readonly file: string;
  readonly task: string;
  readonly reason: string;
}

/**
 * `validate --oracle`: runs the suite with Harbor's oracle (each task's solution/solve.sh) in its
 * sandbox, stores nothing, and returns the tasks whose own solution does not pass their tests.
 */
export async function oracleCheck(io: CliIO, file: string): Promise<OracleFailure[]> {
  const [{ loadSuite }, { runExperiment }] = await Promise.all([
    import('../../formats/load.ts'),
    import('../../runner/runner.ts'),
  ]);
  const plugins = await invocationPlugins(io);
  const suite = await loadSuite(resolve(io.cwd, file), { plugins });
  const experiment = await runExperiment({
    suite,
    plugins,
    harness: HarnessConfigSchema.parse({ name: 'oracle', version: '1.0.0', adapter: 'oracle' }),
    harnessBaseDir: io.cwd,
    env: io.env,
    settings: { concurrency: 2, timeout_seconds: 600 },
  });
  return experiment.records
    .filter((r) => r.outcome !== 'pass')
    .map((r) => {
      const verdict = r.evaluations.find((e) => !e.passed);
      const reason = r.error ?? verdict?.explanation ?? r.outcome;
      const task = suite.tasks.find((t) => t.id === r.task_id);
      return { file: task?.source?.file ?? file, task: r.task_id, reason };
    });
}
