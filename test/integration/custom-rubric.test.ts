import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHarnessConfig, loadSuite } from '../../src/formats/index.ts';
import { runExperiment } from '../../src/runner/runner.ts';
import { parseJudgeSpec } from '../../src/scoring/judge-config.ts';
import { startOpenAICompatibleServer } from '../helpers/openai-compatible-server.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const example = join(root, 'examples/custom-rubric');
let server: Awaited<ReturnType<typeof startOpenAICompatibleServer>>;

beforeAll(async () => {
  server = await startOpenAICompatibleServer(() => '{"level": 3, "rationale": "grouped and accurate"}');
});
afterAll(async () => server.close());

async function run(judgeSpec?: string) {
  const harnessFile = join(example, 'harness.yaml');
  const experiment = await runExperiment({
    suite: await loadSuite(join(example, 'suite.yaml')),
    harness: await loadHarnessConfig(harnessFile),
    harnessBaseDir: dirname(harnessFile),
    env: {},
    ...(judgeSpec === undefined ? {} : { judge: parseJudgeSpec(judgeSpec) }),
  });
  return { experiment, record: experiment.records[0]! };
}

describe('docs/custom-rubrics.md and examples/custom-rubric', () => {
  it('without a judge: the rubric criterion is pending, and the trial has no overall score yet', async () => {
    const { record, experiment } = await run();
    expect(record.outcome).toBe('pending');
    expect(record.criteria.map((c) => [c.id, c.status])).toEqual([
      ['ac-01', 'passed'],
      ['ac-02', 'pending'],
    ]);
    // The automated part is known; the overall score waits for the grade (never counted as perfect).
    expect(record.scores).toEqual({ functional_completeness: 1 });
    expect(experiment.scores['overall']).toBeUndefined();
    expect(experiment.metadata['rubric']).toMatchObject({ pendingReason: expect.stringMatching(/no judge/) });
  });

  it('with an OpenAI-compatible judge: level 3 scores 2/3 per dimension and the suite weights combine', async () => {
    const { record } = await run(`openai-compatible:judge-model@${server.baseURL}`);
    const rubricCriterion = record.criteria.find((c) => c.id === 'ac-02')!;
    // The criterion's own score (2/3) is under pass_threshold (0.75), so it is marked failed...
    expect(rubricCriterion.status).toBe('failed');
    expect(rubricCriterion.score).toBeCloseTo(2 / 3, 10);
    expect(rubricCriterion.grades.map((g) => [g.dimension, g.level, g.grader_kind])).toEqual([
      ['clarity', 3, 'llm'],
      ['accuracy', 3, 'llm'],
    ]);
    expect(rubricCriterion.grades[0]).toMatchObject({ judge_model: 'judge-model', samples: 1 });
    expect(rubricCriterion.grades[0]?.prompt_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(record.scores['clarity']).toBeCloseTo(2 / 3, 10);
    expect(record.scores['rubric']).toBeCloseTo(2 / 3, 10);
    // ...while the run passes on its overall score, the doc's worked example: 0.5 x 1 + 0.5 x 0.667.
    expect(record.scores['overall']).toBeCloseTo(0.5 + 0.5 * (2 / 3), 10);
    expect(record.outcome).toBe('pass');
    // The calibration examples reach the judge.
    const prompt = server.requests.map((r) => r.messages.map((m) => m.content).join('\n')).join('\n');
    expect(prompt).toContain('fix stuff; bump deps; wip refactor (#4411)');
    expect(server.requests.every((r) => r.temperature === 0)).toBe(true);
  });

  it('quotes the example rubric and scoring verbatim', async () => {
    const doc = await readFile(join(root, 'docs/custom-rubrics.md'), 'utf8');
    expect(doc).toContain((await readFile(join(example, 'rubric.yaml'), 'utf8')).trimEnd());
    const suite = await readFile(join(example, 'suite.yaml'), 'utf8');
    expect(doc).toContain(suite.slice(suite.indexOf('scoring:')).trimEnd());
    const task = await readFile(join(example, 'tasks/release-notes.yaml'), 'utf8');
    expect(doc).toContain(task.slice(task.indexOf('acceptance_criteria:'), task.indexOf('tags:')).trimEnd());
  });
});
