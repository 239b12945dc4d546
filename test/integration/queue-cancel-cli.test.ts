import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  agentCheckout,
  exportedExperiment,
  jobRows,
  useQueueWorkers,
  workerHoldingATrial,
} from '../helpers/queue-workers.ts';
import { alive, cli, ROOT, waitFor } from '../helpers/run-cli.ts';

// `runs cancel ID` from another process while a worker holds jobs of the experiment, through the
// built CLI (`npx tsdown` first) on a real PostgreSQL. The worker has the experiment open (its
// suite, agent and gateway cached, experiment-cache.ts): it must still see the cancel, start no
// trial of it after that, and store nothing of a trial the cancel interrupted.
const AGENT = join(ROOT, 'test/fixtures/queue/agent.mjs');
const GATED_PLUGIN = join(ROOT, 'test/fixtures/queue/gated-open-plugin.mjs');
const TEST_TIMEOUT_MS = 180_000;

const queue = useQueueWorkers('harnesseval-queue-cancel-');

const tasks = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ input: `task ${i}`, expected: `task ${i}` }));

describe('runs cancel while a worker holds jobs of the experiment', () => {
  it(
    'stops the trial the worker is running and stores nothing of it; a resume runs it again on the same worker',
    async () => {
      const { url, pool } = queue;
      // t0-t3 answer at once; t4 (`hang`) holds its trial for two minutes.
      const { dir, id, worker, held } = await workerHoldingATrial(queue, 'cancel');
      expect(alive(held.agent)).toBe(true);

      const cancel = await cli(['runs', '--store', url, 'cancel', id], dir);
      expect(cancel.stderr).not.toMatch(/\n\s+at /);
      expect(cancel.status).toBe(0);
      // The worker sees the cancel and stops the held trial (its process group ends) long before
      // the agent would answer.
      await waitFor(() => !alive(held.agent), 20_000);
      await waitFor(() => worker.stderr().includes(`experiment ${id} was cancelled`), 20_000);
      await sleep(1000);
      const cancelled = await exportedExperiment(url, dir, id);
      expect(cancelled.status).toBe('interrupted');
      expect(cancelled.records.map((r) => r.task_id).sort()).toEqual(['t0', 't1', 't2', 't3']);
      // Interrupted: its jobs stay for the resume (the cancelled one keeps its retry count).
      expect(await jobRows(url, id)).toEqual({ completed: 4, cancelled: 1 });
      expect(worker.child.exitCode).toBeNull();
      expect(worker.stderr()).not.toMatch(/^stored t4#0 /m);

      // The held file exists now: t4 answers at once. The worker opens the experiment again (the
      // cancelled one's state is gone) and runs the resumed trial.
      const resumed = await cli(
        ['run', 'evals/cancel.yaml', '--queue', url, '--resume', id, '--no-progress'],
        dir,
      );
      expect(resumed.stderr).toContain(`queued 1 trials of experiment ${id}`);
      expect(resumed.status).toBe(0);
      const experiment = await exportedExperiment(url, dir, id);
      expect(experiment.status).toBe('completed');
      expect(experiment.records.map((r) => [r.task_id, r.outcome]).sort()).toEqual(
        ['t0', 't1', 't2', 't3', 't4'].map((t) => [t, 'pass']),
      );
      const t4 = experiment.records.find((r) => r.task_id === 't4');
      expect(t4?.metadata.worker?.pid).toBe(worker.child.pid);
      // The attempt the cancel stopped counts: the resume put back the same job, taken once before.
      expect(t4?.attempts).toBe(2);
      expect(await jobRows(url, id)).toEqual({});
      expect(await pool.stop(worker)).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'starts none of the jobs a worker took before the cancel and had not started yet',
    async () => {
      const { url, pool } = queue;
      const { dir, marks } = await agentCheckout(join(queue.root, 'taken'), AGENT, { taken: tasks(3) });
      // The suite loads a plugin that holds the worker's opening of the experiment until `gate`
      // exists (the coordinator has no gate: it loads at once).
      const suiteFile = join(dir, 'evals', 'taken.yaml');
      const suite = await readFile(suiteFile, 'utf8');
      await writeFile(
        suiteFile,
        suite.replace('name: taken\n', `name: taken\nplugins: [${JSON.stringify(GATED_PLUGIN)}]\n`),
      );
      const queued = await cli(['run', 'evals/taken.yaml', '--queue', url, '--detach'], dir);
      expect(queued.stderr).toContain('queued 3 trials of experiment');
      expect(queued.status).toBe(0);
      const id = queued.stdout.trim();
      const gate = join(marks, 'gate');
      const worker = pool.start(dir, {
        jobs: 4,
        env: { QUEUE_MARKS: marks, QUEUE_OPEN_GATE: gate },
        verbose: true,
      });
      // The worker took all three jobs in one take and is opening the experiment for them.
      await waitFor(() => existsSync(`${gate}.waiting`), 60_000);

      const cancel = await cli(['runs', '--store', url, 'cancel', id], dir);
      expect(cancel.stderr).toContain(`cancelled 3 queued trials of experiment ${id}`);
      expect(cancel.status).toBe(0);
      // Give the worker time to see it (it looks every second), then let the opening finish.
      await Promise.race([
        waitFor(() => worker.stderr().includes(`experiment ${id} was cancelled`), 10_000),
        sleep(10_000),
      ]).catch(() => undefined);
      await writeFile(gate, '');
      await sleep(3000);
      expect(worker.stderr()).not.toMatch(/^running /m);
      const experiment = await exportedExperiment(url, dir, id);
      expect(experiment.status).toBe('interrupted');
      expect(experiment.records).toEqual([]);
      expect(worker.stderr()).not.toMatch(/put back/);
      expect(await pool.stop(worker)).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});
