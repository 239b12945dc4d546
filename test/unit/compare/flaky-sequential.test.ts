import { describe, expect, it } from 'vitest';
import { compareExperiments } from '../../../src/compare/compare.ts';
import { flakyTasks } from '../../../src/metrics/flaky.ts';
import { createMetric } from '../../../src/metrics/registry.ts';
import {
  renderComparisonConsole,
  renderComparisonMarkdown,
} from '../../../src/reporters/comparison/index.ts';
import { renderConsole } from '../../../src/reporters/console.ts';
import { renderExperimentHtml } from '../../../src/reporters/html/index.ts';
import { renderMarkdown } from '../../../src/reporters/markdown.ts';
import { experimentOf, type TrialSpec } from '../../helpers/comparison.ts';

/** Tasks t0..t(n-1) with 3 epochs; `verdicts[task]` the three outcomes (default all pass). */
function run(id: string, version: string, verdicts: Record<string, boolean[]>, n = 12) {
  const trials: TrialSpec[] = [];
  for (let i = 0; i < n; i++) {
    const task = `t${i}`;
    for (const [epoch, pass] of (verdicts[task] ?? [true, true, true]).entries())
      trials.push({ task, epoch, pass });
  }
  return experimentOf(id, trials, { version, metrics: ['success_rate', 'flaky_tasks'] });
}

describe('flaky tasks', () => {
  it('flip rate: the share of pairs of attempts that disagree', () => {
    const [t] = flakyTasks([{ id: 'r', records: run('a', '1.0.0', { t0: [true, false, true] }).records }]);
    // 2 passes, 1 fail: 2 of the 3 pairs disagree.
    expect(t).toEqual({ task_id: 't0', trials: 3, passes: 2, flip_rate: 2 / 3, runs: 1 });
  });

  it('across stored runs of the same version, not only epochs', () => {
    const one = experimentOf('r1', [{ task: 'x', pass: true }]);
    const two = experimentOf('r2', [{ task: 'x', pass: false }]);
    expect(flakyTasks([one])).toEqual([]);
    expect(flakyTasks([one, two])).toEqual([{ task_id: 'x', trials: 2, passes: 1, flip_rate: 1, runs: 2 }]);
  });

  it('is a metric of a run with epochs, n/a with one attempt per task', () => {
    const a = run('a', '1.0.0', { t0: [true, false, true], t1: [false, false, true] });
    const m = a.metrics.find((x) => x.name === 'flaky_tasks')!;
    expect(m).toMatchObject({ value: 2, n: 12, ci95: null, direction: 'lower_is_better' });
    expect((m.details['tasks'] as { task_id: string }[]).map((t) => t.task_id)).toEqual(['t0', 't1']);
    const single = createMetric('flaky_tasks').calculate({
      records: experimentOf('s', [{ task: 'x' }]).records,
      tasks: [],
      epochs: 1,
    });
    expect(single).toMatchObject({ value: null, details: { reason: 'one attempt per task' } });
  });

  it('marks flaky tasks in compare and leaves them out with excludeFlaky', () => {
    // t0 flaky in A; t1 regresses in B for real (3 of 3 fail) and is stable.
    const a = run('a', '1.0.0', { t0: [true, false, true] });
    const b = run('b', '1.1.0', { t0: [false, false, false], t1: [false, false, false] });
    const c = compareExperiments([a, b]);
    const pair = c.pairs[0]!;
    expect(pair.flaky.map((t) => t.task_id)).toEqual(['t0']);
    expect(pair.regressions.map((t) => [t.task_id, t.flaky])).toEqual([
      ['t0', true],
      ['t1', false],
    ]);
    const text = renderComparisonConsole(c);
    expect(text).toMatch(/✗ t0\s+67% → 0%\s+\(flaky\)/);
    expect(text).toContain('~ t0 (2 of 3 attempts passed, flip rate 0.67)');
    expect(renderComparisonMarkdown(c)).toContain('_(flaky)_');
    const without = compareExperiments([a, b], { excludeFlaky: true });
    expect(without.pairs[0]).toMatchObject({ shared_tasks: 11, total_tasks: 12, excluded: ['t0'] });
    expect(without.pairs[0]!.regressions.map((t) => t.task_id)).toEqual(['t1']);
    expect(without.warnings.join('\n')).toContain('1 flaky tasks left out (t0)');
  });

  it('marks flaky tasks in the experiment reports', () => {
    const a = run('a', '1.0.0', { t0: [true, false, true] });
    expect(renderConsole(a)).toContain('~ t0: 2 of 3 attempts passed, flip rate 0.67');
    expect(renderMarkdown(a)).toContain('- :warning: t0: 2 of 3 attempts passed, flip rate 0.67');
    const html = renderExperimentHtml(a, { nonce: 'n' });
    expect(html).toContain('<span class="badge flaky"');
    expect(html).toContain('Flaky tasks (the verdict differs between attempts of this version) (1)');
  });
});

describe('sequential comparison', () => {
  it('decides "different" once the confidence sequence excludes 0, with the look it stopped at', () => {
    // 60 tasks: B passes where A fails on every third task; never the other way.
    const trials = (better: boolean) =>
      Array.from({ length: 60 }, (_, i) => ({
        task: `t${i}`,
        pass: better ? i % 3 !== 1 || i % 2 === 0 : i % 3 !== 1,
      }));
    const a = experimentOf('a', trials(false), { version: '1.0.0', metrics: ['success_rate'] });
    const b = experimentOf('b', trials(true), { version: '1.1.0', metrics: ['success_rate'] });
    const s = compareExperiments([a, b], { sequential: { margin: 0.05 } }).metrics[0]!.deltas[0]!.sequential!;
    expect(s).toMatchObject({ method: 'betting_confidence_sequence', decision: 'different', tasks: 60 });
    expect(s.decided_after).toBeGreaterThan(5);
    expect(s.decided_after).toBeLessThanOrEqual(60);
    expect(s.interval[0]).toBeLessThan(10 / 60);
  });

  it('decides "equivalent" when the sequence falls inside ±margin, and stays undecided otherwise', () => {
    const same = Array.from({ length: 400 }, (_, i) => ({ task: `t${i}`, pass: i % 2 === 0 }));
    const a = experimentOf('a', same, { version: '1.0.0', metrics: ['success_rate'] });
    const b = experimentOf('b', same, { version: '1.1.0', metrics: ['success_rate'] });
    const wide = compareExperiments([a, b], { sequential: { margin: 0.05 } }).metrics[0]!.deltas[0]!
      .sequential!;
    expect(wide.decision).toBe('equivalent');
    const few = compareExperiments(
      [
        experimentOf('a', same.slice(0, 10), { version: '1.0.0', metrics: ['success_rate'] }),
        experimentOf('b', same.slice(0, 10), { version: '1.1.0', metrics: ['success_rate'] }),
      ],
      { sequential: { margin: 0.05 } },
    );
    const s = few.metrics[0]!.deltas[0]!.sequential!;
    expect(s).toMatchObject({ decision: 'undecided', decided_after: null });
    expect(renderComparisonConsole(few)).toMatch(/success_rate: undecided after 10 tasks \(CS \[/);
  });

  it('only bounded metrics (rates, scores) get a verdict', () => {
    const a = experimentOf(
      'a',
      [
        { task: 'x', cost: 1 },
        { task: 'y', cost: 2 },
      ],
      { metrics: ['cost_per_task'] },
    );
    const b = experimentOf(
      'b',
      [
        { task: 'x', cost: 1 },
        { task: 'y', cost: 3 },
      ],
      { metrics: ['cost_per_task'] },
    );
    expect(
      compareExperiments([a, b], { sequential: { margin: 0.05 } }).metrics[0]!.deltas[0]!.sequential,
    ).toBeUndefined();
  });
});
