import { describe, expect, it } from 'vitest';
import { agentOutput } from '../../../src/core/agent-output.ts';
import { RunRecordSchema } from '../../../src/core/run-record.ts';
import { ScoringSchema } from '../../../src/core/suite.ts';
import { applyGrades } from '../../../src/scoring/regrade.ts';

const record = RunRecordSchema.parse({
  run_id: 'exp:auth#0',
  task_id: 'auth',
  harness_config: { name: 'h', version: '1' },
  timestamp: '2026-11-30T00:00:00Z',
  duration_seconds: 1,
  outcome: 'pending',
  output: agentOutput({ output: 'done' }),
  criteria: [
    { id: 'ac-01', verification: 'automated', status: 'passed', score: 1 },
    { id: 'ac-05', verification: 'rubric', status: 'pending', score: null },
  ],
  metrics: { acceptance_criteria_passed: 1, acceptance_criteria_total: 2 },
});
const grade = (dimension: string, level: number) => ({
  dimension,
  level,
  score: (level - 1) / 3,
  rationale: '',
  grader: 'ann',
  grader_kind: 'human' as const,
  graded_at: '2026-11-30T01:00:00Z',
});
const scoring = ScoringSchema.parse({});
const weights = { code_quality: 0.4, convention_adherence: 0.3 };

describe('applyGrades', () => {
  it('grades the criterion, recomputes scores, outcome and criteria counts', () => {
    // rubric = (0.4*1 + 0.3*(2/3)) / 0.7 = 0.6/0.7 = 0.857; overall = 0.6*1 + 0.4*0.857 = 0.943
    const updated = applyGrades(
      record,
      'ac-05',
      [grade('code_quality', 4), grade('convention_adherence', 3)],
      scoring,
      weights,
    );
    const criterion = updated.criteria.find((c) => c.id === 'ac-05')!;
    expect(criterion.status).toBe('passed');
    expect(criterion.score).toBeCloseTo(0.6 / 0.7, 12);
    expect(updated.scores['overall']).toBeCloseTo(0.6 + 0.4 * (0.6 / 0.7), 12);
    expect(updated.outcome).toBe('pass');
    expect(updated.metrics.acceptance_criteria_passed).toBe(2);
  });

  it('a low grade fails the criterion and the run; regrading a dimension replaces its grade', () => {
    const low = applyGrades(record, 'ac-05', [grade('code_quality', 1)], scoring, weights);
    expect(low.criteria[1]?.status).toBe('failed');
    expect(low.outcome).toBe('fail'); // overall 0.6 < 0.75
    const again = applyGrades(low, 'ac-05', [grade('code_quality', 4)], scoring, weights);
    expect(again.criteria[1]?.grades).toHaveLength(1);
    expect(again.outcome).toBe('pass');
  });
});
