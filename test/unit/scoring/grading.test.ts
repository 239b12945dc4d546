import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentV1 } from '../../../src/adapters/types.ts';
import { agentOutput } from '../../../src/core/agent-output.ts';
import type { Experiment } from '../../../src/core/experiment.ts';
import { HarnessConfigSchema } from '../../../src/core/harness-config.ts';
import type { Suite } from '../../../src/core/suite.ts';
import { loadExperimentSuite } from '../../../src/plugins/file-plugins.ts';
import { runExperiment } from '../../../src/runner/runner.ts';
import { pendingCriteria, saveGrades } from '../../../src/scoring/grading.ts';
import { MemoryStore } from '../../../src/store/memory-store.ts';

// The one way a person's grade is saved, for `harnesseval grade` and the viewer alike.
const suiteFile = new URL('../../fixtures/grade/suite.yaml', import.meta.url).pathname;
const agent: AgentV1 = {
  specificationVersion: 'v1',
  name: 'noop',
  run: async () => agentOutput({ output: 'kept index.js' }),
};

let store: MemoryStore;
let experiment: Experiment;
let suite: Suite;

beforeAll(async () => {
  store = new MemoryStore();
  const { loadSuite } = await import('../../../src/formats/index.ts');
  experiment = await runExperiment({
    suite: await loadSuite(suiteFile),
    harness: HarnessConfigSchema.parse({ name: 'noop', version: '1', adapter: 'in-process' }),
    agent,
    store,
  });
  suite = await loadExperimentSuite(experiment);
});

describe('pendingCriteria', () => {
  it('lists each rubric criterion waiting for a grade with its rubric and dimensions', () => {
    const pending = pendingCriteria(experiment, suite);
    expect(pending.map((p) => [p.record.task_id, p.criterionId, p.description])).toEqual([
      ['tiny-task', 'ac-02', 'Code is clean'],
    ]);
    expect(pending[0]?.rubric).toBeDefined();
    expect(pending[0]?.dimensions.map((d) => d.name)).toEqual(['code_quality', 'convention_adherence']);
    expect(pendingCriteria(experiment, suite, { task: 'other' })).toEqual([]);
  });
});

describe('saveGrades', () => {
  const runId = () => experiment.records[0]!.run_id;

  it('refuses a grade that does not fit, naming the field, and stores nothing', async () => {
    const attempt = (levels: Record<string, number>, over: { runId?: string; criterionId?: string } = {}) =>
      saveGrades(store, experiment, suite, {
        runId: over.runId ?? runId(),
        criterionId: over.criterionId ?? 'ac-02',
        levels,
        grader: 'ann',
      });
    await expect(attempt({ code_quality: 5 })).rejects.toThrow(
      'level.code_quality: expected 1, 2, 3 or 4, got 5',
    );
    await expect(attempt({ style: 3 })).rejects.toThrow('level.style: not a dimension of ac-02');
    await expect(attempt({})).rejects.toThrow('level: choose a level for at least one dimension');
    await expect(attempt({ code_quality: 3 }, { criterionId: 'ac-01' })).rejects.toThrow(
      'criterion: ac-01 is not a rubric or human criterion',
    );
    await expect(attempt({ code_quality: 3 }, { runId: 'nope' })).rejects.toThrow('run_id: no trial nope');
    expect((await store.getExperiment(experiment.id))?.outcome).toBe('pending');
  });

  it('stores the rescored record and the recomputed experiment, and returns it', async () => {
    const partly = await saveGrades(store, experiment, suite, {
      runId: runId(),
      criterionId: 'ac-02',
      levels: { code_quality: 4 },
      grader: 'ann',
    });
    // One dimension graded: the criterion is scored on what is graded so far.
    expect(partly.records[0]?.criteria[1]).toMatchObject({ status: 'passed', score: 1 });
    const after = await saveGrades(store, partly, suite, {
      runId: runId(),
      criterionId: 'ac-02',
      levels: { code_quality: 3, convention_adherence: 2 },
      grader: 'bob',
    });
    // (0.6 * 2/3 + 0.4 * 1/3) / 1 = 0.5333; overall = 0.6 * 1 + 0.4 * 0.5333 = 0.8133 >= 0.75
    const criterion = after.records[0]?.criteria.find((c) => c.id === 'ac-02');
    expect(criterion?.score).toBeCloseTo(0.4 + 0.4 / 3, 12);
    expect(criterion?.status).toBe('failed');
    expect(criterion?.grades.map((g) => [g.dimension, g.level, g.grader, g.grader_kind])).toEqual([
      ['code_quality', 3, 'bob', 'human'],
      ['convention_adherence', 2, 'bob', 'human'],
    ]);
    expect(after.records[0]?.outcome).toBe('pass');
    expect(after.scores['overall']).toBeCloseTo(0.6 + 0.4 * (0.4 + 0.4 / 3), 12);
    const stored = await store.getExperiment(experiment.id);
    expect(stored?.records[0]?.criteria.find((c) => c.id === 'ac-02')?.grades).toHaveLength(2);
    expect(stored?.scores['overall']).toBeCloseTo(after.scores['overall']!, 12);
    expect(stored?.outcome).toBe(after.outcome);
    expect(pendingCriteria(after, suite)).toEqual([]);
  });
});
