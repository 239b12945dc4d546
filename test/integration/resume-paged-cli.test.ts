import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Experiment, ExperimentSchema } from '../../src/core/experiment.ts';
import { loadSuite } from '../../src/formats/load.ts';
import { aggregateExperiment } from '../../src/scoring/experiment-aggregate.ts';
import { openSqliteDatabase } from '../../src/store/sqlite-driver.ts';
import { cli } from '../helpers/run-cli.ts';

// The built CLI (`npx tsdown` first): `run --resume` of an experiment that lost trials all over
// its plan (every third trial) reads what is stored a page at a time (more than one page: 1,200
// trials) and folds it among the new trials; its stored metrics are the whole records' numbers.
const TASKS = 400;
const EPOCHS = 3;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harnesseval-resume-paged-'));
  const tests = Array.from({ length: TASKS }, (_, i) => ({
    id: `t${i}`,
    input: `task ${i}`,
    expected: `answer ${i}`,
  }));
  await writeFile(
    join(dir, 'suite.json'),
    JSON.stringify({
      version: '1.0',
      name: 'resume-paged',
      agent: { adapter: 'function', module: './agent.mjs#answer' },
      tests,
    }),
  );
  // One answer in five is wrong, deterministically: the metrics are not trivial.
  await writeFile(
    join(dir, 'agent.mjs'),
    `export function answer(input) {
  const n = Number(String(input).split(' ')[1]);
  return n % 5 === 0 ? 'wrong' : String(input).replace('task', 'answer');
}\n`,
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(db: string, ...extra: string[]) {
  const result = await cli(
    [
      'run',
      'suite.json',
      '--store',
      db,
      '--epochs',
      String(EPOCHS),
      '--seed',
      '7',
      '-j',
      '4',
      '--no-progress',
      ...extra,
    ],
    dir,
  );
  return result;
}

async function exported(db: string, id: string): Promise<Experiment> {
  const file = join(dir, `${id}.json`);
  const result = await cli(['runs', 'export', id, '-o', file, '--store', db], dir);
  expect(result.status, result.stderr).toBe(0);
  return ExperimentSchema.parse(JSON.parse(await readFile(file, 'utf8')));
}

function onlyExperiment(db: string): string {
  const handle = openSqliteDatabase(db, { readonly: true, fileMustExist: true });
  try {
    return (handle.prepare('SELECT id FROM experiments').get() as { id: string }).id;
  } finally {
    handle.close();
  }
}

const clockless = (e: Experiment) => e.metrics.filter((m) => !/latency|duration|time/i.test(m.name));

describe('harnesseval run --resume: stored trials read in pages', () => {
  it('completes an experiment missing every third trial with the metrics of the whole records and of an uninterrupted run', async () => {
    const single = join(dir, 'single.db');
    expect((await run(single)).status).toBe(0);
    const uninterrupted = await exported(single, onlyExperiment(single));

    // A run that lost a third of its trials, all over the plan (as if each had been cut short).
    const broken = join(dir, 'broken.db');
    expect((await run(broken)).status).toBe(0);
    const id = onlyExperiment(broken);
    const handle = openSqliteDatabase(broken);
    const removed = handle
      .prepare('DELETE FROM records WHERE experiment_id = ? AND (task_index * ? + epoch) % 3 = 1')
      .run(id, EPOCHS).changes;
    handle
      .prepare(
        `UPDATE experiments SET status = 'interrupted', document = json_set(document, '$.status', 'interrupted') WHERE id = ?`,
      )
      .run(id);
    handle.close();
    expect(removed).toBe((TASKS * EPOCHS) / 3);

    const resumed = await run(broken, '--resume', id);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stderr).not.toMatch(/\n\s+at /);
    const experiment = await exported(broken, id);
    expect(experiment.status).toBe('completed');
    expect(experiment.records).toHaveLength(TASKS * EPOCHS);
    expect(new Set(experiment.records.map((r) => `${r.task_id}#${r.epoch}`)).size).toBe(TASKS * EPOCHS);

    const suite = await loadSuite(join(dir, 'suite.json'));
    const whole = aggregateExperiment({
      suite,
      records: experiment.records,
      tasks: suite.tasks,
      epochs: EPOCHS,
    });
    expect(experiment.metrics).toEqual(whole.metrics);
    expect(experiment.scores).toEqual(whole.scores);
    expect(experiment.outcome).toEqual(whole.outcome);
    expect(clockless(experiment)).toEqual(clockless(uninterrupted));
    expect(experiment.scores).toEqual(uninterrupted.scores);
    expect(experiment.metrics.find((m) => m.name === 'success_rate')?.value).toBe(0.8);
  }, 120_000);
});
