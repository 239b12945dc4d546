import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AgentOutputSchema,
  type AgentV1,
  createPluginSet,
  Evaluator,
  ExperimentSchema,
  type Harness,
  loadSuite,
  registerPlugin,
  runExperiment,
  TaskSchema,
  TaskSpec,
} from 'harnesseval';
import { binary, defineEvaluator, definePlugin, noOptions, outputText, toResult } from 'harnesseval/plugin';
import { MemoryStore } from 'harnesseval/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../helpers/run-cli.ts';

const SECRET = 'sk-seed004-secret-value-1234';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-seed004-'));
  process.env['HE_SEED004_API_KEY'] = SECRET;
});
afterAll(async () => {
  delete process.env['HE_SEED004_API_KEY'];
  await rm(dir, { recursive: true, force: true });
});

const leaky: Harness = {
  name: 'leaky-harness',
  run: (task) => `answer to ${task.id} with key ${SECRET}`,
};

describe('TaskSpec.fromFile takes a file with one task', () => {
  it('refuses a suite, naming the kind and the count', async () => {
    const file = join(ROOT, 'suites/product-dev/suite.yaml');
    await expect(TaskSpec.fromFile(file)).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining(
        `${file}: a suite with 6 tasks, and a TaskSpec is one task; load it with loadSuite`,
      ),
    });
  });

  it('refuses a dataset with many cases and a benchmark with many tests', async () => {
    const dataset = join(ROOT, 'examples/hello-world/datasets/hello-world-v0.jsonl');
    const cases = (await readFile(dataset, 'utf8')).trim().split('\n').length;
    await expect(TaskSpec.fromFile(dataset)).rejects.toThrow(`a dataset with ${cases} cases`);
    await expect(TaskSpec.fromFile(join(ROOT, 'test/fixtures/run/basic.yaml'))).rejects.toThrow(
      'a benchmark with 4 tests',
    );
  });

  it('accepts a task spec, and a benchmark with a single test', async () => {
    const spec = await TaskSpec.fromFile(join(ROOT, 'suites/product-dev/tasks/bug-fix-regression.yaml'));
    expect(spec.id).toBe('bug-fix-regression');
    const one = join(dir, 'one.yaml');
    await writeFile(one, 'version: "1.0"\nname: one\ntests:\n  - { id: only, input: hi }\n');
    expect((await TaskSpec.fromFile(one)).id).toBe('only');
  });
});

describe('Evaluator and runRecord.save()', () => {
  it('runs one task and saves an export that report and runs import read, with secrets redacted', async () => {
    const task = TaskSpec.fromTask(TaskSchema.parse({ id: 'greet', input: 'hello' }));
    const run = await new Evaluator({ harness: leaky, task, config: { version: '1.2.3' } }).run();
    expect(run.experiment.records).toHaveLength(1);
    expect(run.record.output.output).toContain(SECRET); // in memory the output is what the harness said
    const file = await run.save(join(dir, 'runs'));
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).toContain('[REDACTED:HE_SEED004_API_KEY]');
    const saved = ExperimentSchema.parse(JSON.parse(text));
    expect(saved.records.map((r) => r.run_id)).toEqual([run.runId]);
    expect(saved.harness).toMatchObject({ name: 'leaky-harness', version: '1.2.3', adapter: 'in-process' });

    const report = await cli(['report', file]);
    expect(report.stderr).toBe('');
    expect(report.status).toBe(0);
    expect(report.stdout).toContain('greet');
    const store = join(dir, 'store.db');
    const imported = await cli(['runs', 'import', file, '--store', store]);
    expect(imported.stderr).toBe('');
    expect(imported.status).toBe(0);
    const listed = await cli(['runs', 'list', '--store', store]);
    expect(listed.stdout).toContain(saved.id);
  });
});

describe('TaskSpec and Evaluator with a plugin set', () => {
  it('a task naming a plugin evaluator loads and runs with the set, and is refused without it', async () => {
    const polite = defineEvaluator({
      name: 'says_please',
      description: 'passes when the output says please',
      options: noOptions,
      create: () => ({
        specificationVersion: 'v1',
        name: 'says_please',
        evaluate: async ({ output }) =>
          toResult('says_please', binary(outputText(output).includes('please'), 'please?')),
      }),
    });
    const plugins = createPluginSet();
    registerPlugin(definePlugin({ evaluators: [polite] }), plugins);
    const file = join(dir, 'polite-task.yaml');
    await writeFile(
      file,
      'id: polite\ndomain: demo\ndescription: ask nicely\nacceptance_criteria:\n  - { id: ac-1, verification: automated, evaluator: { name: says_please } }\n',
    );
    await expect(TaskSpec.fromFile(file)).rejects.toThrow(/polite-task\.yaml: 1 error/);
    const task = await TaskSpec.fromFile(file, { plugins });
    const asks = (answer: string): Harness => ({ name: 'asker', run: () => answer });
    const yes = await new Evaluator({
      harness: asks('yes please'),
      task,
      config: { version: '1' },
      plugins,
    }).run();
    expect(yes.record.outcome).toBe('pass');
    const no = await new Evaluator({ harness: asks('no'), task, config: { version: '1' }, plugins }).run();
    expect(no.record.outcome).toBe('fail');
  });
});

describe('runExperiment takes the harness object Evaluator takes', () => {
  it('runs a whole suite with an in-process Harness, recorded as in-process', async () => {
    const suite = await loadSuite(join(ROOT, 'test/fixtures/run/basic.yaml'));
    const greeter: Harness = {
      name: 'greeter',
      run: (task) => `Hello, ${String(task.input).split(' ')[1]}!`,
    };
    const store = new MemoryStore();
    const experiment = await runExperiment({ suite, harness: greeter, harnessVersion: '2.0.0', store });
    expect(experiment.harness).toMatchObject({ name: 'greeter', version: '2.0.0', adapter: 'in-process' });
    expect(experiment.records).toHaveLength(4);
    expect(experiment.records.filter((r) => r.outcome === 'pass').map((r) => r.task_id)).toEqual([
      'greet-ada',
      'greet-bob',
      'greet-cy',
    ]);
    expect((await store.getExperiment(experiment.id))?.records).toHaveLength(4);
  });

  it('takes an AgentV1 as well, and still takes a config naming an adapter', async () => {
    const suite = await loadSuite(join(ROOT, 'test/fixtures/run/basic.yaml'));
    const agent: AgentV1 = {
      specificationVersion: 'v1',
      name: 'fixed-agent',
      run: async () => AgentOutputSchema.parse({ output: 'Hello, Ada!' }),
    };
    const byAgent = await runExperiment({ suite, harness: agent });
    expect(byAgent.harness.name).toBe('fixed-agent');
    expect(byAgent.records.filter((r) => r.outcome === 'pass').map((r) => r.task_id)).toEqual(['greet-ada']);
    if (suite.harness === undefined) throw new Error('the fixture names an agent');
    const byConfig = await runExperiment({
      suite,
      harness: suite.harness,
      harnessBaseDir: join(ROOT, 'test/fixtures/run'),
    });
    expect(byConfig.harness.adapter).toBe('function');
  });
});
