import { describe, expect, it } from 'vitest';
import {
  clusteredStandardError,
  epochStandardError,
  taskMeans,
  varianceComponents,
} from '../../../src/stats/clustered.ts';
import { standardError } from '../../../src/stats/descriptive.ts';

describe('clusteredStandardError', () => {
  // Clusters c1 = {1, 1}, c2 = {0, 0}, c3 = {1, 0}; n = 6, mean = 0.5.
  // Residuals: c1 (+.5, +.5) sum +1; c2 (-.5, -.5) sum -1; c3 (+.5, -.5) sum 0.
  // Σ_c (Σ e)² = 1 + 1 + 0 = 2; Σ e² = 6 × 0.25 = 1.5; cross terms = 2 - 1.5 = 0.5.
  const observations = [
    { value: 1, cluster: 'c1' },
    { value: 1, cluster: 'c1' },
    { value: 0, cluster: 'c2' },
    { value: 0, cluster: 'c2' },
    { value: 1, cluster: 'c3' },
    { value: 0, cluster: 'c3' },
  ];

  it('computes Miller eq. 4 by hand', () => {
    // SE² = s²/n + cross/n² = (1.5/5)/6 + 0.5/36 = 0.05 + 0.013888… = 0.063888…; SE = 0.252762…
    const result = clusteredStandardError(observations, { correction: 'miller' });
    expect(result?.mean).toBe(0.5);
    expect(result?.stderr).toBeCloseTo(Math.sqrt(0.05 + 0.5 / 36), 14);
    expect(result?.clusters).toBe(3);
    // It is wider than the naive CLT SE sqrt(0.05) = 0.223607 because the clusters agree inside.
    expect(result!.stderr).toBeGreaterThan(standardError(observations.map((o) => o.value))!);
  });

  it('computes CR1 (the default, Cameron & Miller 2015) and CR0 by hand', () => {
    // CR0: 2/36 -> 0.235702…; CR1: (3/2) × 2/36 = 1/12 -> 0.288675…
    expect(clusteredStandardError(observations)?.stderr).toBeCloseTo(Math.sqrt(1 / 12), 14);
    expect(clusteredStandardError(observations, { correction: 'none' })?.stderr).toBeCloseTo(
      Math.sqrt(2 / 36),
      14,
    );
    expect(clusteredStandardError(observations, { correction: 'cr1' })?.stderr).toBeCloseTo(
      Math.sqrt(1 / 12),
      14,
    );
  });

  it('equals the CLT standard error when every observation is its own cluster', () => {
    const values = [0.2, 0.9, 0.4, 0.4, 1];
    const singletons = values.map((value, i) => ({ value, cluster: `c${i}` }));
    expect(clusteredStandardError(singletons)?.stderr).toBeCloseTo(standardError(values)!, 14);
    expect(clusteredStandardError(singletons, { correction: 'cr1' })?.stderr).toBeCloseTo(
      standardError(values)!,
      14,
    );
  });

  it('is null for n < 2 or a single cluster, and ignores NaN', () => {
    expect(clusteredStandardError([])).toBeNull();
    expect(clusteredStandardError([{ value: 1, cluster: 'a' }])).toBeNull();
    expect(
      clusteredStandardError([
        { value: 1, cluster: 'a' },
        { value: 0, cluster: 'a' },
      ]),
    ).toBeNull();
    const withNaN = [...observations, { value: Number.NaN, cluster: 'c4' }];
    expect(clusteredStandardError(withNaN)?.stderr).toBeCloseTo(Math.sqrt(1 / 12), 14);
  });

  it('never returns a negative variance when clusters disagree inside', () => {
    // Each cluster sums to 0 residual: cross terms = -Σe², Miller's SE² = Σe²/(n(n-1)) - Σe²/n² > 0.
    const result = clusteredStandardError(
      [
        { value: 1, cluster: 'a' },
        { value: 0, cluster: 'a' },
        { value: 1, cluster: 'b' },
        { value: 0, cluster: 'b' },
      ],
      { correction: 'miller' },
    );
    // Σe² = 1; SE² = 1/12 - 1/16 = 1/48
    expect(result?.stderr).toBeCloseTo(Math.sqrt(1 / 48), 14);
    expect(
      clusteredStandardError(
        [
          { value: 1, cluster: 'a' },
          { value: 0, cluster: 'a' },
          { value: 1, cluster: 'b' },
          { value: 0, cluster: 'b' },
        ],
        { correction: 'none' },
      )?.stderr,
    ).toBe(0);
  });
});

describe('epochs: SE over per-task means, not trials', () => {
  // t1 = [1, 1], t2 = [0, 0], t3 = [1, 0], t4 = [1, 1]
  const trials = [
    { task: 't1', value: 1 },
    { task: 't1', value: 1 },
    { task: 't2', value: 0 },
    { task: 't2', value: 0 },
    { task: 't3', value: 1 },
    { task: 't3', value: 0 },
    { task: 't4', value: 1 },
    { task: 't4', value: 1 },
  ];

  it('averages each task first', () => {
    expect(taskMeans(trials)).toEqual(
      new Map([
        ['t1', 1],
        ['t2', 0],
        ['t3', 0.5],
        ['t4', 1],
      ]),
    );
  });

  it('gives the per-task SE, which is wider than the naive per-trial SE', () => {
    // Task means 1 0 0.5 1: mean 0.625; deviations² .140625 .390625 .015625 .140625 = .6875;
    // s² = .6875/3 = .229166…; SE = sqrt(.6875/3/4) = 0.2393567769…
    // Trials as if independent: 8 values, mean .625, s² = 120/448, SE = sqrt(120/448/8) = 0.182981…
    const result = epochStandardError(trials);
    expect(result.mean).toBe(0.625);
    expect(result.n).toBe(4);
    expect(result.trials).toBe(8);
    expect(result.stderr).toBeCloseTo(Math.sqrt(0.6875 / 3 / 4), 14);
    expect(standardError(trials.map((t) => t.value))).toBeCloseTo(0.18298126367784998, 12);
    expect(result.clustered).toBe(false);
  });

  it('weights tasks equally when epochs are uneven', () => {
    // t1 = [1, 1, 1], t2 = [0]: trial mean 0.75, task mean (1 + 0)/2 = 0.5
    const uneven = [
      { task: 't1', value: 1 },
      { task: 't1', value: 1 },
      { task: 't1', value: 1 },
      { task: 't2', value: 0 },
    ];
    expect(epochStandardError(uneven).mean).toBe(0.5);
  });

  it('clusters the task means when tasks carry a cluster', () => {
    // Task means 1 0 | 0.5 1 in clusters x | y; mean .625; residuals .375 -.625 | -.125 .375
    // sums -.25 | .25 -> Σ(sum)² = .125; Σe² = .6875; Miller: .6875/3/4 + (.125 - .6875)/16 = .0221354…
    // CR1 (the default): G/(G-1) · .125/16 = .015625 -> SE .125
    const clusters: Record<string, string> = { t1: 'x', t2: 'x', t3: 'y', t4: 'y' };
    const result = epochStandardError(trials, { clusterOf: (task) => clusters[task] });
    expect(result.clustered).toBe(true);
    expect(result.clusters).toBe(2);
    expect(result.stderr).toBeCloseTo(0.125, 12);
    const miller = epochStandardError(trials, { clusterOf: (task) => clusters[task], correction: 'miller' });
    expect(miller.stderr).toBeCloseTo(Math.sqrt(0.6875 / 12 + (0.125 - 0.6875) / 16), 12);
  });

  it('handles empty and single-task input', () => {
    expect(epochStandardError([])).toMatchObject({ mean: null, stderr: null, n: 0, trials: 0 });
    expect(epochStandardError([{ task: 'a', value: 1 }])).toMatchObject({ mean: 1, stderr: null, n: 1 });
  });
});

describe('varianceComponents', () => {
  it('splits between- and within-task variance', () => {
    // Within: var(1,1)=0, var(0,0)=0, var(1,0)=0.5, var(1,1)=0 -> mean 0.125; K = 2
    // Between: var(task means) 0.229166… - 0.125/2 = 0.166666…
    const result = varianceComponents([
      [1, 1],
      [0, 0],
      [1, 0],
      [1, 1],
    ]);
    expect(result?.within).toBeCloseTo(0.125, 14);
    expect(result?.between).toBeCloseTo(1 / 6, 14);
    expect(result?.epochs).toBe(2);
    expect(result?.tasks).toBe(4);
  });

  it('floors between at 0 and is null without enough data', () => {
    // Task means equal (0.5, 0.5) -> var of means 0 - within/K < 0 -> 0
    expect(
      varianceComponents([
        [1, 0],
        [0, 1],
      ])?.between,
    ).toBe(0);
    expect(varianceComponents([[1, 0]])).toBeNull();
    expect(varianceComponents([[1], [0]])).toBeNull();
    expect(varianceComponents([])).toBeNull();
  });
});
