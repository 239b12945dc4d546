import { describe, expect, it } from 'vitest';
import { isDecided, isExcludedError, overallScore } from '../../../src/core/overall-score.ts';
import { createMetric } from '../../../src/metrics/registry.ts';
import { metricNotes } from '../../../src/reporters/metric-notes.ts';
import { scoreSuite } from '../../../src/scoring/suite-score.ts';
import { input, record } from './records.ts';

// An `infra` error (an imported trial whose container or sandbox failed) says nothing about the
// harness: like an environment error it is left out of rates and scores, and counted apart.
const infra = (task_id: string, epoch = 0) =>
  record({ task_id, epoch, outcome: 'error', error: 'docker: no space left', error_kind: 'infra' });
const harnessError = (task_id: string) =>
  record({ task_id, outcome: 'error', error: 'agent crashed', error_kind: 'crash' });

const records = () => [
  record({ task_id: 'a', outcome: 'pass' }),
  record({ task_id: 'b', outcome: 'fail' }),
  harnessError('c'),
  infra('d'),
];

describe('infra errors', () => {
  it('are excluded, not decided, while a harness error is decided', () => {
    const [, , crash, failed] = records();
    expect(isExcludedError(failed!)).toBe(true);
    expect(isDecided(failed!)).toBe(false);
    expect(isExcludedError(crash!)).toBe(false);
    expect(isDecided(crash!)).toBe(true);
  });

  it('are left out of success_rate and counted as infra_errors', () => {
    const result = createMetric('success_rate').calculate(input(records()));
    // a pass, b fail, c harness error: 1 of 3 (d left out); with d as a failure it would be 1 of 4.
    expect(result.value).toBeCloseTo(1 / 3, 12);
    expect(result.n).toBe(3);
    expect(result.details).toMatchObject({ infra_errors: 1, environment_errors: 0 });
    expect(result.details['errors_by_kind']).toEqual({ crash: 1 });
    expect(metricNotes(result)).toContain('1 infra error left out');
  });

  it('are left out of error_rate, which counts only the harness error', () => {
    const result = createMetric('error_rate').calculate(input(records()));
    expect(result.value).toBeCloseTo(1 / 3, 12);
    expect(result.details).toMatchObject({ infra_errors: 1, environment_errors: 0 });
  });

  it('are left out of pass@k per task and counted', () => {
    const list = [
      record({ task_id: 'a', epoch: 0, outcome: 'pass' }),
      record({ task_id: 'a', epoch: 1, outcome: 'fail' }),
      infra('b', 0),
      record({ task_id: 'b', epoch: 1, outcome: 'pass' }),
    ];
    const result = createMetric('pass@1').calculate(input(list, { epochs: 2 }));
    // a: 1 of 2 -> 0.5; b: its one decided attempt passed -> 1 (not 0.5 as it would be with the infra error as a fail)
    expect(result.value).toBeCloseTo(0.75, 12);
    expect(result.details).toMatchObject({ infra_errors: 1 });
  });

  it('are left out of the overall score; a run of only infra errors has an error outcome, not a fail', () => {
    const score = overallScore(records(), []);
    expect(score.infra_errors).toBe(1);
    expect(score.decided).toBe(3);
    expect(score.value).toBeCloseTo(1 / 3, 12);
    const all = scoreSuite([infra('a'), infra('b')], [], {
      method: 'weighted_average',
      pass_threshold: 0.75,
      weights: { functional: 0.6, rubric: 0.4 },
    });
    expect(all.overall).toBeNull();
    expect(all.outcome).toBe('error');
  });
});
