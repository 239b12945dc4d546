import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentV1 } from '../../src/adapters/types.ts';
import { agentOutput } from '../../src/core/agent-output.ts';
import { HarnessConfigSchema } from '../../src/core/harness-config.ts';
import { loadSuite } from '../../src/formats/index.ts';
import { runExperiment } from '../../src/runner/runner.ts';
import { openStore } from '../../src/store/index.ts';

const root = new URL('../..', import.meta.url).pathname;
const suiteFile = join(root, 'test/fixtures/grade/suite.yaml');
const agent: AgentV1 = {
  specificationVersion: 'v1',
  name: 'noop',
  run: async () => agentOutput({ output: 'I kept index.js as it was.\u001b[31m' }),
};

let storePath: string;
let experimentId: string;

beforeAll(async () => {
  storePath = join(await mkdtemp(join(tmpdir(), 'he-grade-')), 'store.db');
  const store = await openStore(storePath);
  const experiment = await runExperiment({
    suite: await loadSuite(suiteFile),
    harness: HarnessConfigSchema.parse({ name: 'noop', version: '1', adapter: 'in-process' }),
    agent,
    store,
  });
  experimentId = experiment.id;
  expect(experiment.records[0]?.outcome).toBe('pending');
  expect(experiment.outcome).toBe('pending');
  await store.close();
});

function grade(input: string, ...args: string[]) {
  return spawnSync(
    process.execPath,
    [join(root, 'bin/harnesseval.js'), 'grade', ...args, '--store', storePath],
    {
      input,
      encoding: 'utf8',
      cwd: root,
    },
  );
}

describe('harnesseval grade', () => {
  it('skips and quits without losing anything, then grades by prefix and recomputes the scores', async () => {
    const quit = grade('q\n', experimentId);
    expect(quit.status).toBe(0);
    expect(quit.stdout).toContain('graded 0 criteria');

    const result = grade('7\n4\n3\n', experimentId.slice(0, -2), '--grader', 'Ann');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('tiny-task');
    expect(result.stdout).toContain('4: Exemplary');
    expect(result.stdout).toContain('please answer 1, 2, 3, 4, s or q');
    expect(result.stdout).toContain('\\x1b[31m'); // agent output shown as data, not as a colour change
    expect(result.stdout).toContain('graded 1 criteria as Ann; 0 still pending');

    const store = await openStore(storePath);
    const stored = await store.getExperiment(experimentId);
    await store.close();
    const record = stored!.records[0]!;
    const criterion = record.criteria.find((c) => c.id === 'ac-02')!;
    expect(criterion.grades.map((g) => [g.dimension, g.level, g.grader, g.grader_kind])).toEqual([
      ['code_quality', 4, 'Ann', 'human'],
      ['convention_adherence', 3, 'Ann', 'human'],
    ]);
    // rubric = (0.6*1 + 0.4*(2/3)) / 1.0 = 0.8667; overall = 0.6*1 + 0.4*0.8667 = 0.9467
    expect(record.scores['overall']).toBeCloseTo(0.6 + 0.4 * (0.6 + 0.4 * (2 / 3)), 10);
    expect(record.outcome).toBe('pass');
    expect(stored!.outcome).toBe('pass');
    expect(stored!.scores['overall']).toBeCloseTo(record.scores['overall']!, 10);
  });

  it('exits 1 for an unknown experiment', () => {
    const result = grade('', 'exp-nope');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/exp-nope/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('harnesseval grade on a suite whose names come from its plugins: modules', () => {
  it('loads the modules again, so the suite re-read for grading knows their names', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'he-grade-plugins-'));
    await cp(join(root, 'test/fixtures/grade'), dir, { recursive: true });
    // The metric tool_calls exists only in examples/plugins/plugin.ts.
    await writeFile(
      join(dir, 'suite.yaml'),
      [
        'suite_id: grade-suite',
        `plugins: [${JSON.stringify(join(root, 'examples/plugins/plugin.ts'))}]`,
        'tasks:',
        '  - ref: task.yaml',
        'metrics: [tool_calls]',
        'scoring: { method: weighted_average, pass_threshold: 0.75 }',
        '',
      ].join('\n'),
    );
    const store = join(dir, 'store.db');
    const cliIn = (args: string[], input = '') =>
      spawnSync(process.execPath, [join(root, 'bin/harnesseval.js'), ...args], {
        input,
        encoding: 'utf8',
        cwd: dir,
      });
    const run = cliIn(['run', 'suite.yaml', '--harness', 'harness.yaml', '--store', store, '--no-progress']);
    expect(run.status, run.stderr).toBe(0);
    const graded = cliIn(['grade', 'exp-', '--store', store, '--grader', 'Ann'], '3\n3\n');
    expect(graded.stderr).toBe('');
    expect(graded.status).toBe(0);
    expect(graded.stdout).toMatch(/graded 1 criteri/);
    expect(graded.stdout).toMatch(/0 still pending; overall score 0\.\d+/);
  }, 120_000);
});
