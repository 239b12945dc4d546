import { describe, expect, it } from 'vitest';
import { compareExperiments } from '../../../src/compare/compare.ts';
import {
  renderComparisonConsole,
  renderComparisonHtml,
  renderComparisonMarkdown,
} from '../../../src/reporters/comparison/index.ts';
import { experimentOf } from '../../helpers/comparison.ts';

const many = Array.from({ length: 30 }, (_, i) => `task-${i}`);
const hostile = '<script>alert(1)</script> | \u001b[31mred\u001b[0m';

function flipping() {
  const a = experimentOf(
    'a',
    many.map((task) => ({ task, pass: true, score: 0.9, cost: 1 })),
    { version: '1.0.0' },
  );
  const b = experimentOf(
    'b',
    many.map((task, i) => ({
      task,
      pass: i >= 20,
      score: i >= 20 ? 0.9 : 0.2,
      cost: 1,
      explanation: hostile,
    })),
    { version: '1.1.0' },
  );
  return compareExperiments([a, b], {
    thresholds: { success_rate: { max_regression: 0.05, require_significant: true } },
  });
}

describe('comparison views', () => {
  it('markdown stays PR-sized, puts significant regressions first and escapes agent text', () => {
    const md = renderComparisonMarkdown(flipping());
    const lines = md.split('\n');
    expect(lines.length).toBeLessThanOrEqual(60);
    expect(md).toContain(':x: **1 regression rule broken**');
    const firstRow = lines.find((l) => l.startsWith('| success_rate') || l.startsWith('| accuracy'));
    expect(firstRow).toMatch(/:red_circle:/);
    expect(md).toContain('- … 14 more');
    expect(md).not.toContain('<script>');
    expect(md).toContain('&lt;script&gt;');
    expect(md).not.toContain('\u001b');
  });

  it('console caps flipped tasks and shows control characters as escapes', () => {
    const text = renderComparisonConsole(flipping(), { maxFlipped: 5 });
    expect(text).toContain('Regressions (v1.1.0: pass → fail): 20');
    expect(text).toContain('… 15 more');
    expect(text).not.toContain('\u001b');
    expect(text).toContain('\\x1b[31mred');
    // 20 of 30 flip pass → fail: McNemar exact p = 2 · 0.5^20 < 0.001, Holm-adjusted still < 0.001.
    expect(text).toMatch(
      /^success_rate\s+100\.0%\s+33\.3%\s+-66\.7%\s+-66\.7 pp\s+\[-\d+\.\d pp, -\d+\.\d pp\]\s+<0\.001\s+<0\.001\s+McNemar\s+▼ significant regression$/m,
    );
  });

  it('colours regressions red and improvements green only when painting', () => {
    const red = (s: string) => `R(${s})`;
    const green = (s: string) => `G(${s})`;
    const id = (s: string) => s;
    const text = renderComparisonConsole(flipping(), {
      paint: { red, green, yellow: id, dim: id },
    });
    expect(text).toMatch(/R\(\s*-66\.7%\)/);
  });

  it('html escapes agent text and keeps only the nonce script', () => {
    const html = renderComparisonHtml(flipping(), { nonce: 'n0nce' });
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html.match(/<script nonce=/g)).toHaveLength(1);
    expect(html).toContain('Regression rules broken (1)');
    expect(html).toContain('Flipped tasks: v1.1.0 vs v1.0.0');
  });
});
