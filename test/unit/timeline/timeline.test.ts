import { describe, expect, it } from 'vitest';
import {
  renderTimelineConsole,
  renderTimelineMarkdown,
  sparkline,
} from '../../../src/reporters/timeline/index.ts';
import { buildTimeline } from '../../../src/timeline/timeline.ts';
import { experimentOf } from '../../helpers/comparison.ts';

const tasks = Array.from({ length: 12 }, (_, i) => `t${i + 1}`);

/** A version whose tasks all score `score` (± a small per-task wobble) with `hitl` unplanned HITL each. */
function version(v: string, date: string, score: number, hitl: number, wobble = 0) {
  return experimentOf(
    `exp-${v}`,
    tasks.map((task, i) => ({
      task,
      overall: Math.min(1, score + (i % 2 ? wobble : -wobble)),
      hitl,
      cost: hitl,
    })),
    {
      version: v,
      createdAt: `${date}T12:00:00.000Z`,
      name: 'tf-product-dev-harness',
      suiteId: 'product-dev-core-v1',
    },
  );
}

describe('sparkline', () => {
  it('scales between min and max', () => {
    expect(sparkline([1, 2, 3, 4, 5, 6, 7, 8])).toBe('▁▂▃▄▅▆▇█');
    expect(sparkline([11.3, 8.7, 8.2, 5.1, 3.3])).toBe('█▆▅▃▁');
  });
  it('handles flat, missing and empty series', () => {
    expect(sparkline([2, 2, 2])).toBe('▄▄▄');
    expect(sparkline([1, null, 3])).toBe('▁ █');
    expect(sparkline([null, null])).toBe('  ');
    expect(sparkline([])).toBe('');
  });
});
describe('buildTimeline', () => {
  // Out of order on purpose, and run in an order that is not the version order: 0.4.0 ran first.
  const experiments = [
    version('0.4.0', '2026-05-19', 0.86, 5, 0.01),
    version('0.2.0', '2026-04-07', 0.64, 11, 0.01),
    version('0.3.0', '2026-04-21', 0.74, 8, 0.01),
    // 0.3.1: the same scores as 0.3.0 with a wobble in the other direction: not significant.
    version('0.3.1', '2026-05-05', 0.74, 8, -0.01),
  ];

  it('orders by version, defaults to the seed metrics that exist, and marks significant changes', () => {
    const t = buildTimeline(experiments);
    expect(t.order).toBe('semver');
    expect(t.points.map((p) => p.version)).toEqual(['0.2.0', '0.3.0', '0.3.1', '0.4.0']);
    expect(t.points.map((p) => p.date)).toEqual(['2026-04-07', '2026-04-21', '2026-05-05', '2026-05-19']);
    expect(t.metrics.map((m) => m.name)).toEqual(['hitl_unplanned', 'cost_per_task', 'overall_score']);
    expect(t.harness).toBe('tf-product-dev-harness');
    const score = t.points.map((p) => p.cells[2]!);
    expect(score[0]!.change).toBeNull();
    // 0.64 -> 0.74 on every task: every difference 0.1, no spread: the exact sign test,
    // p = 2 · 0.5^12 = 0.000488; Holm over the 9 step tests keeps it significant (0.0044).
    expect(score[1]!.change).toMatchObject({
      significant: true,
      is_improvement: true,
      mark: '▲',
      test: 'sign_test',
    });
    expect(score[1]!.change!.p_value).toBeCloseTo(2 * 0.5 ** 12, 15);
    expect(score[1]!.change!.p_adjusted!).toBeGreaterThan(score[1]!.change!.p_value!);
    // 0.3.0 -> 0.3.1: differences ±0.02 around 0: not significant.
    expect(score[2]!.change).toMatchObject({ significant: false, mark: '' });
    expect(score[2]!.change!.p_value).toBeCloseTo(1, 6);
    // Unplanned HITL fell (lower is better): ▼, an improvement.
    expect(t.points[1]!.cells[0]!.change).toMatchObject({
      significant: true,
      is_improvement: true,
      mark: '▼',
    });
  });

  it('tests the trend over the whole lineage, not only step to step', () => {
    const t = buildTimeline(experiments);
    const score = t.trends.find((x) => x.metric === 'overall_score')!;
    // Per-task slopes over versions 0..3 of (0.64, 0.74, 0.74, 0.86): Σ(x - 1.5)y / 5 = 0.066 per version (the wobble cancels).
    expect(score.slope).toBeCloseTo(0.066, 10);
    expect(score).toMatchObject({ significant: true, is_improvement: true, tasks: 12 });
    expect(score.first_last?.delta).toBeCloseTo(0.22, 10);
    const hitl = t.trends.find((x) => x.metric === 'hitl_unplanned')!;
    // HITL 11, 8, 8, 5: Σ(x - 1.5)y / 5 = -9 / 5 = -1.8 per version (fewer is better).
    expect(hitl.slope).toBeCloseTo(-1.8, 10);
    expect(hitl).toMatchObject({ is_improvement: true, is_regression: false });
  });

  it('orders by metadata.released when versions are not semantic, else by run time', () => {
    const named = (v: string, released: string | undefined, created: string) => {
      const e = version('1.0.0', created, 0.5, 1);
      return {
        ...e,
        harness: { ...e.harness, version: v, metadata: released ? { released } : {} },
      };
    };
    const released = buildTimeline([
      named('spring', '2026-03-01', '2026-06-01'),
      named('winter', '2026-01-01', '2026-06-02'),
    ]);
    expect(released.order).toBe('released');
    expect(released.points.map((p) => p.version)).toEqual(['winter', 'spring']);
    expect(released.points.map((p) => p.date)).toEqual(['2026-01-01', '2026-03-01']);
    const byRun = buildTimeline([named('b', undefined, '2026-06-02'), named('a', undefined, '2026-06-01')]);
    expect(byRun.order).toBe('created_at');
    expect(byRun.points.map((p) => p.version)).toEqual(['a', 'b']);
  });

  it('shows one point per version: the latest run, or all runs pooled, and says which', () => {
    const rerun = version('0.2.0', '2026-06-01', 0.7, 9, 0.01);
    const again = { ...rerun, id: 'exp-0.2.0-again' };
    const lineage = [...experiments, again];
    const latest = buildTimeline(lineage);
    expect(latest.points.map((p) => p.version)).toEqual(['0.2.0', '0.3.0', '0.3.1', '0.4.0']);
    expect(latest.points[0]).toMatchObject({
      experiment_id: 'exp-0.2.0-again',
      experiment_ids: ['exp-0.2.0-again'],
    });
    expect(latest.warnings.join('\n')).toMatch(/0\.2\.0 \(2 runs\): the latest run of each version is shown/);
    const pooled = buildTimeline(lineage, { perVersion: 'pooled' });
    expect(pooled.per_version).toBe('pooled');
    expect(pooled.points[0]!.experiment_ids).toEqual(['exp-0.2.0', 'exp-0.2.0-again']);
    // Pooled: HITL 11 and 9 on every task -> 10.
    expect(pooled.points[0]!.cells[0]!.value).toBeCloseTo(10, 10);
  });

  it('renders the seed table with direction marks, sparklines and trends', () => {
    const text = renderTimelineConsole(buildTimeline(experiments));
    const lines = text.split('\n');
    expect(lines[0]).toBe('Timeline: tf-product-dev-harness');
    expect(lines[1]).toBe(
      'Suite: product-dev-core-v1 · ordered by semantic version; one point per version (the latest run of each version)',
    );
    expect(lines[3]).toMatch(/^Date\s+Version\s+Unplanned HITL\s+Cost\/task\s+Score$/);
    expect(lines[4]).toMatch(/^2026-04-07\s+v0\.2\.0\s+11\s+\$/);
    expect(lines[5]).toMatch(/^2026-04-21\s+v0\.3\.0\s+8 ▼\s+\$8\.00 ▼\s+0\.740 ▲$/);
    expect(lines[6]).toMatch(/^2026-05-05\s+v0\.3\.1\s+8\s+\$8\.00\s+0\.740$/);
    expect(text).toMatch(/Unplanned HITL\s+█▅▅▁\s+11 → 5\s+lower is better\s+improving/);
    expect(text).toMatch(/Score\s+▁▄▄█/);
    expect(text).toMatch(
      /^Score: slope \+0\.066 per version \[\+0\.0\d\d, \+0\.0\d\d\], p <0\.001 \(Holm <0\.001\) over 12 tasks; first → last \+0\.220/m,
    );
  });

  it('renders markdown', () => {
    const md = renderTimelineMarkdown(buildTimeline(experiments, { metrics: ['overall_score'] }));
    expect(md).toContain('| Date | Version | Score |');
    expect(md).toContain('| 2026-05-19 | v0.4.0 | 0.860 ▲ |');
    expect(md).toContain('- Score: improving — slope +0.066 per version');
  });

  it('falls back to outcome metrics without process metrics, and warns about mixed suites', () => {
    const a = experimentOf('a', [{ task: 'x' }], {
      metrics: ['success_rate', 'accuracy'],
      createdAt: '2026-01-01T00:00:00Z',
      version: '1.0.0',
    });
    const b = experimentOf('b', [{ task: 'x' }], {
      metrics: ['success_rate', 'accuracy'],
      suiteId: 'other',
      createdAt: '2026-01-02T00:00:00Z',
      version: '1.1.0',
    });
    const t = buildTimeline([b, a]);
    expect(t.metrics.map((m) => m.name)).toEqual(['success_rate', 'accuracy']);
    expect(t.warnings).toEqual(['the timeline mixes suites: known-suite, other']);
  });

  it('rejects an empty lineage', () => {
    expect(() => buildTimeline([])).toThrow(/no experiments/);
  });
});
