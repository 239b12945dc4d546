import { describe, expect, it } from 'vitest';
import { paretoFrontier } from '../../../src/compare/pareto.ts';
import { costScoreChart } from '../../../src/reporters/comparison/cost-score.ts';
import { taskScatter } from '../../../src/reporters/comparison/task-scatter.ts';
import { lineChart } from '../../../src/reporters/html/charts.ts';

const hostile = '<script>alert(1)</script>"';

function point(id: string, cost: number, score: number, unpriced = 0) {
  return {
    experiment_id: id,
    label: id,
    cost,
    score,
    score_ci95: [score - 0.1, score + 0.1] as const,
    unpriced_calls: unpriced,
    unknown_cost_trials: 0,
    pending_trials: 0,
  };
}

describe('taskScatter', () => {
  const pairs = [
    { task_id: 'up', baseline: 0.2, candidate: 0.9 },
    { task_id: 'down', baseline: 0.8, candidate: 0.1 },
    { task_id: hostile, baseline: 0.5, candidate: 0.5 },
  ];

  it('draws one point per paired task, coloured by its side of the diagonal, each a link', () => {
    const svg = taskScatter(pairs, {
      baselineLabel: 'v1',
      candidateLabel: 'v2',
      href: (task) => `/compare/task?task=${encodeURIComponent(task)}`,
    });
    expect(svg.match(/<circle class="task-point/g)).toHaveLength(3);
    expect(svg).toContain('class="task-point above" cx="114" cy="60" r="5" data-task="up"');
    expect(svg).toContain('class="task-point below"');
    expect(svg).toContain('class="task-point same"');
    expect(svg).toContain('class="grid zero diagonal"');
    expect(svg).toContain('1 better, 1 worse, 1 the same, of 3 paired tasks');
    expect(svg.match(/<a href="\/compare\/task\?task=/g)).toHaveLength(3);
  });

  it('escapes task ids and labels, and says so when no task is paired', () => {
    const svg = taskScatter(pairs, { baselineLabel: hostile, candidateLabel: 'v2' });
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;');
    expect(svg).not.toContain('<a ');
    expect(taskScatter([], { baselineLabel: 'a', candidateLabel: 'b' })).toContain('nothing to plot');
    expect(taskScatter(pairs, { baselineLabel: 'a', candidateLabel: 'b', leftOut: 2 })).toContain(
      '2 tasks not plotted (pending, or run by one side only)',
    );
  });
});

describe('costScoreChart', () => {
  it('marks the frontier, draws partial costs hollow with ≥ and lists the missing', () => {
    const svg = costScoreChart({
      points: paretoFrontier([
        point('cheap', 0.01, 0.5),
        point('best', 0.03, 0.9),
        point('dear', 0.04, 0.6),
        point(hostile, 0.005, 0.95, 2),
      ]),
      missing: [{ experiment_id: 'none', label: 'v0', reason: 'no cost recorded' }],
    });
    const status = (id: string) => new RegExp(`data-experiment="${id}" data-status="(\\w+)"`).exec(svg)?.[1];
    expect([status('cheap'), status('best'), status('dear')]).toEqual(['frontier', 'frontier', 'dominated']);
    expect(svg).toContain('data-status="incomplete"');
    expect(svg).toContain('class="frontier-line"');
    expect(svg).toContain('Pareto frontier (nothing cheaper and at least as good): cheap, best.');
    expect(svg).toContain('data-missing="none"');
    expect(svg).toContain('2 unpriced calls');
    expect(svg).not.toContain('<script>');
    expect(svg.match(/class="ci-line"/g)).toHaveLength(4);
  });

  it('has no frontier when every cost is partial, and no chart without points', () => {
    const svg = costScoreChart({ points: paretoFrontier([point('a', 0.01, 0.5, 1)]), missing: [] });
    expect(svg).toContain('No configuration with a complete cost and a final score: no frontier.');
    expect(svg).not.toContain('frontier-line');
    expect(costScoreChart({ points: [], missing: [] })).toContain(
      'no experiment has both a cost and a score',
    );
  });
});

describe('lineChart links', () => {
  it('makes a point a link to its href and a step a link to its stepHref, escaped', () => {
    const svg = lineChart(
      [
        {
          name: 'score',
          points: [
            { x: 0, y: 0.5, href: '/experiments/a' },
            { x: 1, y: 0.7, href: '/experiments/b', stepHref: '/compare?id=a&id=b' },
          ],
        },
      ],
      { title: 't' },
    );
    expect(svg.match(/<a href="\/experiments\/[ab]" class="point-link">/g)).toHaveLength(2);
    expect(svg).toContain('<a href="/compare?id=a&amp;id=b" class="step">');
  });
});
