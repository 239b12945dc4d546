import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../src/stats/bootstrap.ts';
import { confidenceSequence } from '../../../src/stats/confidence-sequence.ts';
import { adjustPValues } from '../../../src/stats/multiplicity.ts';
import { pairedDifference, twoSidedPValue } from '../../../src/stats/paired.ts';
import { type PairedKind, pairedTest } from '../../../src/stats/paired-test.ts';

/**
 * Seeded simulations of each decision rule under the null (A and B drawn from the same
 * distribution): the share of "significant" results must not exceed α beyond simulation error
 * (three binomial standard errors). Seeds are fixed, so a run is reproducible; sizes are small
 * enough to take about a second each.
 */

const ALPHA = 0.05;

function bound(reps: number): number {
  return ALPHA + 3 * Math.sqrt((ALPHA * (1 - ALPHA)) / reps);
}

function normal(random: () => number): number {
  // Box–Muller; 1 - u keeps the logarithm finite.
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

type Draw = (random: () => number, n: number) => { a: Map<string, number>; b: Map<string, number> };

/** Scores: a task effect shared by A and B plus independent noise (correlated pairs). */
const scores: Draw = (random, n) => {
  const a = new Map<string, number>();
  const b = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const task = normal(random);
    a.set(`t${i}`, task + 0.5 * normal(random));
    b.set(`t${i}`, task + 0.5 * normal(random));
  }
  return { a, b };
};

/** One pass/fail verdict per task, each task with its own pass probability. */
const verdicts: Draw = (random, n) => {
  const a = new Map<string, number>();
  const b = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const p = random();
    a.set(`t${i}`, random() < p ? 1 : 0);
    b.set(`t${i}`, random() < p ? 1 : 0);
  }
  return { a, b };
};

/** Pass rates over 5 epochs per task. */
const rates: Draw = (random, n) => {
  const a = new Map<string, number>();
  const b = new Map<string, number>();
  const rate = (p: number) => {
    let passes = 0;
    for (let k = 0; k < 5; k++) if (random() < p) passes++;
    return passes / 5;
  };
  for (let i = 0; i < n; i++) {
    const p = random();
    a.set(`t${i}`, rate(p));
    b.set(`t${i}`, rate(p));
  }
  return { a, b };
};

function falsePositiveRate(draw: Draw, kind: PairedKind, n: number, reps: number, seed: number): number {
  const random = mulberry32(seed);
  let rejected = 0;
  for (let r = 0; r < reps; r++) {
    const { a, b } = draw(random, n);
    const test = pairedTest(a, b, { kind });
    // Never p = 0: an exact test decides when the differences do not vary.
    expect(test.p_value === null || test.p_value > 0).toBe(true);
    if (test.significant) rejected++;
  }
  return rejected / reps;
}

describe('false positive rate of each decision rule under the null', () => {
  const reps = 2000;
  it.each([6, 20, 60])('paired t on correlated scores, %i tasks', (n) => {
    expect(falsePositiveRate(scores, 'continuous', n, reps, 100 + n)).toBeLessThanOrEqual(bound(reps));
  });

  it.each([6, 20, 60])('exact McNemar on pass/fail verdicts, %i tasks', (n) => {
    expect(falsePositiveRate(verdicts, 'binary', n, reps, 200 + n)).toBeLessThanOrEqual(bound(reps));
  });

  it.each([6, 20, 60])('t on per-task pass rates over 5 epochs, %i tasks', (n) => {
    expect(falsePositiveRate(rates, 'continuous', n, reps, 300 + n)).toBeLessThanOrEqual(bound(reps));
  });

  it('the z test it replaces rejects too often on pass/fail verdicts at small n', () => {
    // The audit's finding, reproduced: z on 0/1 differences at 20 tasks exceeds the nominal 5%.
    const random = mulberry32(7);
    let z = 0;
    const n = 20;
    for (let r = 0; r < reps; r++) {
      const { a, b } = verdicts(random, n);
      if (pairedDifference(a, b, { method: 'z' }).significant) z++;
    }
    expect(z / reps).toBeGreaterThan(ALPHA);
  });
});

describe('multiplicity', () => {
  it('Holm keeps the family-wise error rate at α over 20 null metrics; no adjustment does not', () => {
    const reps = 500;
    const random = mulberry32(20);
    let anyRaw = 0;
    let anyHolm = 0;
    let anyBh = 0;
    for (let r = 0; r < reps; r++) {
      const ps = Array.from({ length: 20 }, () => {
        const { a, b } = scores(random, 40);
        return pairedDifference(a, b).p_value;
      });
      if (ps.some((p) => p !== null && p < ALPHA)) anyRaw++;
      if (adjustPValues(ps, 'holm').some((p) => p !== null && p < ALPHA)) anyHolm++;
      // Under the complete null every rejection is false, so BH's FDR is its FWER here.
      if (adjustPValues(ps, 'bh').some((p) => p !== null && p < ALPHA)) anyBh++;
    }
    expect(anyHolm / reps).toBeLessThanOrEqual(bound(reps));
    expect(anyBh / reps).toBeLessThanOrEqual(bound(reps));
    // 1 - 0.95^20 = 0.64 of comparisons would flag something without it.
    expect(anyRaw / reps).toBeGreaterThan(0.5);
  });
});

describe('sequential comparison', () => {
  /** Per-task differences of pass/fail verdicts under the null: -1, 0, +1. */
  function nullDifferences(random: () => number, n: number): number[] {
    return Array.from({ length: n }, () => {
      const u = random();
      return u < 0.2 ? -1 : u < 0.4 ? 1 : 0;
    });
  }

  it('the confidence sequence excludes 0 at some look at most α of the time, over 150 looks', () => {
    const reps = 400;
    const looks = 150;
    const random = mulberry32(99);
    let everExcluded = 0;
    let repeatedTExcluded = 0;
    for (let r = 0; r < reps; r++) {
      const d = nullDifferences(random, looks);
      const steps = confidenceSequence(d, { lower: -1, upper: 1, grid: 201 });
      if (steps.some((s) => s.interval[0] > 0 || s.interval[1] < 0)) everExcluded++;
      // The naive alternative: a t test after every task from the 6th on (running sums).
      let sum = 0;
      let squares = 0;
      for (let t = 1; t <= looks; t++) {
        const x = d[t - 1]!;
        sum += x;
        squares += x * x;
        if (t < 6) continue;
        const mean = sum / t;
        const variance = (squares - t * mean * mean) / (t - 1);
        if (variance > 0 && twoSidedPValue(mean / Math.sqrt(variance / t), t - 1) < ALPHA) {
          repeatedTExcluded++;
          break;
        }
      }
    }
    expect(everExcluded / reps).toBeLessThanOrEqual(bound(reps));
    // Peeking with a fixed-n test after every task inflates the error several-fold.
    expect(repeatedTExcluded / reps).toBeGreaterThan(2 * ALPHA);
  });

  it('covers a true non-zero mean at every look, and narrows around it', () => {
    const reps = 200;
    const random = mulberry32(5);
    let missed = 0;
    let last: [number, number] = [-1, 1];
    for (let r = 0; r < reps; r++) {
      const d = Array.from({ length: 200 }, () => {
        const u = random();
        return u < 0.1 ? -1 : u < 0.4 ? 1 : 0; // mean +0.2
      });
      const steps = confidenceSequence(d, { lower: -1, upper: 1, grid: 201 });
      if (steps.some((s) => s.interval[0] > 0.2 || s.interval[1] < 0.2)) missed++;
      last = steps.at(-1)?.interval ?? last;
    }
    expect(missed / reps).toBeLessThanOrEqual(bound(reps));
    expect(last[1] - last[0]).toBeLessThan(0.5);
  });

  it('rejects observations outside the stated bounds', () => {
    expect(() => confidenceSequence([0.5, 1.5])).toThrow(/outside \[0, 1\]/);
  });
});
