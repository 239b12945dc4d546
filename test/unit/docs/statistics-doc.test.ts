import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareExperiments } from '../../../src/compare/compare.ts';
import { renderComparisonConsole } from '../../../src/reporters/comparison/index.ts';
import { wilsonInterval } from '../../../src/stats/proportion.ts';
import { experimentOf } from '../../helpers/comparison.ts';

// The worked example of docs/statistics.md, recomputed: the doc's numbers are the library's.
const doc = readFileSync(new URL('../../../docs/statistics.md', import.meta.url), 'utf8');

const passA = [1, 1, 0, 1, 0, 1, 1, 0, 1, 0];
const passB = [1, 1, 1, 1, 0, 1, 1, 1, 1, 1];
const scoreA = [0.62, 0.71, 0.4, 0.8, 0.35, 0.66, 0.9, 0.45, 0.7, 0.52];
const scoreB = [0.7, 0.75, 0.58, 0.83, 0.37, 0.7, 0.93, 0.62, 0.74, 0.66];
const metrics = ['success_rate', { name: 'evaluator_score', options: { evaluator: 'judge' } }];

function version(id: string, v: string, pass: number[], score: number[]) {
  return experimentOf(
    id,
    pass.map((p, i) => ({ task: `t${i + 1}`, pass: p === 1, evaluators: { judge: score[i]! } })),
    { version: v, metrics },
  );
}

describe('docs/statistics.md worked example', () => {
  const comparison = compareExperiments([
    version('a', '1.0.0', passA, scoreA),
    version('b', '1.1.0', passB, scoreB),
  ]);

  it('prints the table rows the doc shows', () => {
    const block = /```text\n([\s\S]*?)```/.exec(doc.slice(doc.indexOf('## A worked example')))?.[1] ?? '';
    const rendered = renderComparisonConsole(comparison);
    for (const line of block.trim().split('\n')) expect(rendered).toContain(line.trimEnd());
  });

  it('states the numbers the library computes', () => {
    const [success, score] = comparison.metrics;
    expect(success?.deltas[0]?.paired).toMatchObject({ test: 'mcnemar_exact', p_value: 0.25 });
    const p = score!.deltas[0]!.paired!;
    expect(p.p_value).toBeCloseTo(0.003597141789061648, 12); // scipy ttest_rel
    expect(p.p_adjusted).toBeCloseTo(0.007194283578123291, 12); // statsmodels multipletests holm
    expect(doc).toContain(`p =\n**${p.p_value!.toFixed(4)}**`);
    expect(doc).toContain(`adjusted p is **${p.p_adjusted!.toFixed(4)}**`);
    const wilson = (k: number) => wilsonInterval(k, 10)!.map((x) => `${(x * 100).toFixed(1)}%`);
    expect(doc).toContain(`A passes 6 of 10 (Wilson 95% interval ${wilson(6).join(' to ')})`);
    expect(doc).toContain(`B 9 of 10 (${wilson(9).join(' to ')})`);
  });

  it('is linked from the README statistics bullet', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    expect(readme).toMatch(
      /\*\*Statistics\*\*[^\n]*(\n {2}[^\n]*)*\[docs\/statistics\.md\]\(docs\/statistics\.md\)/,
    );
  });
});
