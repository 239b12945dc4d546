import { describe, expect, it } from 'vitest';
import { type CostScorePoint, costScoreData, paretoFrontier } from '../../../src/compare/pareto.ts';
import { taskScorePairs } from '../../../src/compare/task-scores.ts';
import { experimentOf } from '../../helpers/comparison.ts';

function point(id: string, cost: number, score: number, extra: Partial<CostScorePoint> = {}): CostScorePoint {
  return {
    experiment_id: id,
    label: id,
    cost,
    score,
    score_ci95: null,
    unpriced_calls: 0,
    unknown_cost_trials: 0,
    pending_trials: 0,
    ...extra,
  };
}

const statuses = (points: CostScorePoint[]) =>
  Object.fromEntries(paretoFrontier(points).map((p) => [p.experiment_id, p.status]));

describe('paretoFrontier', () => {
  it('keeps the configurations nothing cheaper and at least as good beats', () => {
    expect(
      statuses([point('cheap', 1, 0.5), point('best', 3, 0.9), point('worse', 4, 0.8), point('mid', 2, 0.7)]),
    ).toEqual({ cheap: 'frontier', best: 'frontier', worse: 'dominated', mid: 'frontier' });
  });

  it('puts a single point on the frontier, and none for no points', () => {
    expect(statuses([point('only', 0.4, 0.1)])).toEqual({ only: 'frontier' });
    expect(paretoFrontier([])).toEqual([]);
  });

  it('keeps identical points together on the frontier; an equal cost with a lower score is dominated', () => {
    expect(statuses([point('a', 1, 0.5), point('b', 1, 0.5)])).toEqual({ a: 'frontier', b: 'frontier' });
    expect(statuses([point('a', 1, 0.5), point('b', 1, 0.4)])).toEqual({ a: 'frontier', b: 'dominated' });
    expect(statuses([point('a', 1, 0.5), point('b', 2, 0.5)])).toEqual({ a: 'frontier', b: 'dominated' });
  });

  it('never places a partial cost on the frontier nor lets it rule another point out', () => {
    // "partial" looks cheaper and better than "full", but its real cost is unknown.
    const result = statuses([point('full', 2, 0.6), point('partial', 1, 0.9, { unpriced_calls: 3 })]);
    expect(result).toEqual({ full: 'frontier', partial: 'incomplete' });
    expect(statuses([point('unknown', 1, 0.9, { unknown_cost_trials: 1 })])).toEqual({
      unknown: 'incomplete',
    });
  });

  it('keeps a score that waits for grades off the frontier too', () => {
    expect(statuses([point('final', 2, 0.6), point('pending', 1, 0.9, { pending_trials: 4 })])).toEqual({
      final: 'frontier',
      pending: 'incomplete',
    });
  });

  it('has no frontier when every point has unpriced calls', () => {
    const ranked = paretoFrontier([
      point('a', 1, 0.5, { unpriced_calls: 1 }),
      point('b', 2, 0.9, { unpriced_calls: 2 }),
    ]);
    expect(ranked.map((p) => p.status)).toEqual(['incomplete', 'incomplete']);
  });
});

describe('costScoreData', () => {
  const a = experimentOf(
    'exp-a',
    [
      { task: 't1', pass: true, cost: 0.02 },
      { task: 't2', pass: false, cost: 0.04 },
    ],
    { version: '1.0.0' },
  );
  const b = experimentOf(
    'exp-b',
    [
      { task: 't1', pass: true, cost: 0.01 },
      { task: 't2', pass: true, cost: 0.01 },
    ],
    { version: '2.0.0' },
  );

  it('reads mean cost per task and the overall score with its interval, labelled like the comparison', () => {
    const data = costScoreData([a, b]);
    expect(data.missing).toEqual([]);
    const [pa, pb] = data.points;
    expect(pa).toMatchObject({ label: 'v1.0.0', cost: 0.03, score: 0.5, status: 'dominated' });
    expect(pb).toMatchObject({ label: 'v2.0.0', cost: 0.01, score: 1, status: 'frontier' });
    expect(pa?.score_ci95).not.toBeNull();
  });

  it('lists an experiment without any known cost as missing instead of drawing it at 0', () => {
    const free = experimentOf('exp-c', [{ task: 't1', pass: true }], { version: '3.0.0' });
    const data = costScoreData([a, free]);
    expect(data.points.map((p) => p.experiment_id)).toEqual(['exp-a']);
    expect(data.missing).toEqual([
      { experiment_id: 'exp-c', label: 'v3.0.0', reason: expect.stringContaining('no cost recorded') },
    ]);
  });

  it('reads pending trials from the overall score, which keeps the point off the frontier', () => {
    const graded = {
      ...b,
      metrics: b.metrics.map((m) =>
        m.name === 'overall_score' ? { ...m, details: { ...m.details, pending: 2 } } : m,
      ),
    };
    expect(costScoreData([graded]).points[0]).toMatchObject({ pending_trials: 2, status: 'incomplete' });
  });

  it('counts unpriced calls and trials without a cost from the stored metric', () => {
    const partial = experimentOf('exp-d', [
      { task: 't1', pass: true, cost: 0.01 },
      { task: 't2', pass: true },
    ]);
    const [p] = costScoreData([partial]).points;
    expect(p).toMatchObject({ unknown_cost_trials: 1, status: 'incomplete' });
  });
});

describe('taskScorePairs', () => {
  it('pairs the tasks both experiments decided, by mean score over epochs', () => {
    const a = experimentOf('a', [
      { task: 'x', overall: 0.2 },
      { task: 'x', epoch: 1, overall: 0.4 },
      { task: 'y', overall: 1 },
      { task: 'only-a', overall: 1 },
    ]);
    const b = experimentOf('b', [
      { task: 'y', overall: 0.5 },
      { task: 'x', overall: 0.9 },
      { task: 'x', epoch: 1, error: 'timed out' },
    ]);
    expect(taskScorePairs(a, b)).toEqual([
      { task_id: 'x', baseline: expect.closeTo(0.3, 10), candidate: 0.45 },
      { task_id: 'y', baseline: 1, candidate: 0.5 },
    ]);
  });
});
