import { describe, expect, it } from 'vitest';
import {
  renderTimelineConsole,
  renderTimelineMarkdown,
  sparkline,
} from '../../../src/reporters/timeline/index.ts';
import { buildTimeline } from '../../../src/timeline/timeline.ts';
import { experimentOf } from '../../helpers/comparison.ts';

const tasks = ['t1', 't2', 't3', 't4', 't5', 't6', 't7', 't8'];

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
  // Out of order on purpose: the timeline sorts by date.
  const experiments = [
    version('0.4.0', '2026-05-19', 0.86, 5, 0.01),
    version('0.2.0', '2026-04-07', 0.64, 11, 0.01),
    version('0.3.0', '2026-04-21', 0.74, 8, 0.01),
    // 0.3.1: the same scores as 0.3.0 with a wobble in the other direction: not significant.
    version('0.3.1', '2026-05-05', 0.74, 8, -0.01),
  ];

  it('orders by date, defaults to the seed metrics that exist, and marks significant changes', () => {
    const t = buildTimeline(experiments);
    expect(t.points.map((p) => p.version)).toEqual(['0.2.0', '0.3.0', '0.3.1', '0.4.0']);
    expect(t.points.map((p) => p.date)).toEqual(['2026-04-07', '2026-04-21', '2026-05-05', '2026-05-19']);
    expect(t.metrics.map((m) => m.name)).toEqual(['hitl_unplanned', 'cost_per_task', 'overall_score']);
    expect(t.harness).toBe('tf-product-dev-harness');
    const score = t.points.map((p) => p.cells[2]!);
    expect(score[0]!.change).toBeNull();
    // 0.64 -> 0.74 on every task: every difference 0.1, SE 0 -> significant.
    expect(score[1]!.change).toMatchObject({ significant: true, is_improvement: true });
    // 0.3.0 -> 0.3.1: differences ±0.02 around 0: not significant.
    expect(score[2]!.change).toMatchObject({ significant: false });
    expect(score[2]!.change!.p_value).toBeCloseTo(1, 6);
    expect(t.points[1]!.cells[0]!.change).toMatchObject({ significant: true, is_improvement: true });
  });

  it('renders the seed table with marks and sparklines', () => {
    const text = renderTimelineConsole(buildTimeline(experiments));
    const lines = text.split('\n');
    expect(lines[0]).toBe('Timeline: tf-product-dev-harness');
    expect(lines[1]).toBe('Suite: product-dev-core-v1');
    expect(lines[3]).toMatch(/^Date\s+Version\s+Unplanned HITL\s+Cost\/task\s+Score$/);
    expect(lines[4]).toMatch(/^2026-04-07\s+v0\.2\.0\s+11\s+\$/);
    expect(lines[5]).toMatch(/^2026-04-21\s+v0\.3\.0\s+8\*\s+\$8\.00\*\s+0\.740\*$/);
    expect(lines[6]).toMatch(/^2026-05-05\s+v0\.3\.1\s+8\s+\$8\.00\s+0\.740$/);
    expect(text).toMatch(/Unplanned HITL\s+█▅▅▁\s+11 → 5\s+lower is better/);
    expect(text).toMatch(/Score\s+▁▄▄█/);
  });

  it('renders markdown', () => {
    const md = renderTimelineMarkdown(buildTimeline(experiments, { metrics: ['overall_score'] }));
    expect(md).toContain('| Date | Version | Score |');
    expect(md).toContain('| 2026-05-19 | v0.4.0 | 0.860* |');
  });

  it('falls back to outcome metrics without process metrics, and warns about mixed suites', () => {
    const a = experimentOf('a', [{ task: 'x' }], {
      metrics: ['success_rate', 'accuracy'],
      createdAt: '2026-01-01T00:00:00Z',
    });
    const b = experimentOf('b', [{ task: 'x' }], {
      metrics: ['success_rate', 'accuracy'],
      suiteId: 'other',
      createdAt: '2026-01-02T00:00:00Z',
    });
    const t = buildTimeline([b, a]);
    expect(t.metrics.map((m) => m.name)).toEqual(['success_rate', 'accuracy']);
    expect(t.warnings).toEqual(['the timeline mixes suites: known-suite, other']);
  });

  it('rejects an empty lineage', () => {
    expect(() => buildTimeline([])).toThrow(/no experiments/);
  });
});
