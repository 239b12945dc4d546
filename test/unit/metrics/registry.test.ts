import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import { MetricResultSchema } from '../../../src/core/experiment.ts';
import type { RunRecord } from '../../../src/core/run-record.ts';
import { builtinMetricNames, metricCatalog } from '../../../src/metrics/catalog.ts';
import { computeMetrics, defaultMetrics } from '../../../src/metrics/compute.ts';
import { builtinMetrics, createMetric, MetricRegistry } from '../../../src/metrics/registry.ts';
import type { MetricDefinition } from '../../../src/metrics/types.ts';
import { input, outcomes, record } from './records.ts';

function caught(run: () => unknown): HarnessEvalError {
  try {
    run();
  } catch (error) {
    if (HarnessEvalError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a HarnessEvalError');
}

/** A spec for every built-in, with the options it needs. */
const everyBuiltin = builtinMetricNames.map((name) =>
  name === 'evaluator_score' ? { name, options: { evaluator: 'regex' } } : { name, options: {} },
);

describe('createMetric', () => {
  it('creates every built-in, taking name and direction from the catalog', () => {
    for (const name of builtinMetricNames) {
      expect(builtinMetrics[name].name).toBe(name);
      expect(builtinMetrics[name].direction).toBe(metricCatalog[name].direction);
    }
    expect(createMetric('success_rate').specificationVersion).toBe('v1');
  });

  it('accepts the pass@k and pass^k aliases', () => {
    expect(createMetric('pass@3').name).toBe('pass@3');
    expect(createMetric('pass^2').name).toBe('pass^2');
  });

  it('suggests the closest name for a typo', () => {
    const error = caught(() => createMetric('sucess_rate'));
    expect(error.code).toBe('invalid_config');
    expect(error.message).toBe('unknown metric "sucess_rate" (did you mean "success_rate"?)');
    expect(caught(() => createMetric('agent_latency_p59')).message).toMatch(
      /did you mean "agent_latency_p5[09]"/,
    );
    // The old names of renamed metrics still work.
    expect(createMetric('latency').name).toBe('agent_latency');
    expect(createMetric('latency_p95').name).toBe('agent_latency_p95');
    expect(caught(() => createMetric('zzzzzzzzzzzz')).message).toBe('unknown metric "zzzzzzzzzzzz"');
  });

  it('checks options against the metric schema', () => {
    const error = caught(() => createMetric({ name: 'pass_at_k', options: { k: 0 } }));
    expect(error.code).toBe('invalid_config');
    expect(error.message).toMatch(/^metric "pass_at_k": options\.k: /);
    expect(caught(() => createMetric({ name: 'success_rate', options: { extra: 1 } })).code).toBe(
      'invalid_config',
    );
    expect(caught(() => createMetric('evaluator_score')).message).toMatch(/evaluator/);
  });
});

describe('MetricRegistry plugins', () => {
  const median: MetricDefinition = {
    name: 'duration_max',
    direction: 'lower_is_better',
    description: 'longest trial',
    options: metricCatalog.success_rate.options,
    create: () => ({
      specificationVersion: 'v1',
      name: 'duration_max',
      direction: 'lower_is_better',
      calculate: ({ records }) => {
        const value = records.length === 0 ? null : Math.max(...records.map((r) => r.duration_seconds));
        return {
          name: 'duration_max',
          value,
          formatted_value: value === null ? 'n/a' : `${value}s`,
          direction: 'lower_is_better',
          n: records.length,
          stderr: null,
          ci95: null,
          description: 'longest trial',
          details: {},
        };
      },
    }),
  };

  it('registers and runs a user metric', () => {
    const registry = new MetricRegistry();
    registry.register(median);
    expect(registry.has('duration_max')).toBe(true);
    const [result] = computeMetrics(
      ['duration_max'],
      input([record({ task_id: 'a', outcome: 'pass', duration_seconds: 4 })]),
      registry,
    );
    expect(result?.value).toBe(4);
    expect(caught(() => createMetric('duration_max')).code).toBe('invalid_config'); // not in the default registry
  });

  it('refuses a name that is taken by another definition; the same one again is a no-op', () => {
    const registry = new MetricRegistry();
    const unregister = registry.register(median);
    expect(() => registry.register(median)).not.toThrow();
    expect(caught(() => registry.register({ ...median })).message).toMatch(
      /a metric named "duration_max" is already registered \(unregister it first\)/,
    );
    expect(caught(() => registry.register({ ...median, name: 'success_rate' })).code).toBe('invalid_config');
    unregister();
    expect(registry.has('duration_max')).toBe(false);
    registry.register({ ...median });
    expect(registry.has('duration_max')).toBe(true);
  });

  it('refuses an instance whose specificationVersion this HarnessEval does not run', () => {
    const registry = new MetricRegistry();
    registry.register({
      ...median,
      create: () => ({ ...median.create({}), specificationVersion: 'v0' }) as never,
    });
    expect(caught(() => registry.create('duration_max')).message).toBe(
      'metric "duration_max" has specificationVersion "v0"; this HarnessEval supports "v1" (update HarnessEval or the plugin)',
    );
    const { specificationVersion: _, ...unversioned } = median.create({});
    expect(caught(() => registry.create(unversioned as never)).message).toMatch(
      /has no specificationVersion/,
    );
  });

  it('turns a throwing or NaN-returning plugin into n/a without losing the other metrics', () => {
    const registry = new MetricRegistry();
    registry.register({
      ...median,
      name: 'broken',
      create: () => ({
        specificationVersion: 'v1',
        name: 'broken',
        direction: 'neutral',
        calculate: () => {
          throw new Error('boom');
        },
      }),
    });
    registry.register({
      ...median,
      name: 'nan',
      create: () => ({
        specificationVersion: 'v1',
        name: 'nan',
        direction: 'neutral',
        calculate: () => ({
          name: 'nan',
          value: Number.NaN,
          formatted_value: 'NaN',
          direction: 'neutral',
          n: 1,
          stderr: null,
          ci95: null,
          description: '',
          details: {},
        }),
      }),
    });
    const results = computeMetrics(
      ['broken', 'nan', 'success_rate'],
      input(outcomes({ a: ['pass'] })),
      registry,
    );
    expect(results.map((r) => [r.name, r.formatted_value])).toEqual([
      ['broken', 'n/a'],
      ['nan', 'n/a'],
      ['success_rate', '100.0%'],
    ]);
    expect(results[0]?.details.error).toBe('boom');
  });

  it('fails before computing anything when a name is unknown', () => {
    expect(() => computeMetrics(['success_rate', 'nope'], input([]))).toThrow(HarnessEvalError);
  });
});

describe('defaultMetrics', () => {
  it('lists the base metrics for a single-epoch run without process data', () => {
    const refs = defaultMetrics(input(outcomes({ a: ['pass'] })));
    expect(refs.map((r) => r.name)).toEqual([
      'success_rate',
      'success_rate_completed',
      'accuracy',
      'error_rate',
      'agent_latency',
      'agent_latency_p50',
      'agent_latency_p95',
      'trial_duration',
      'tokens_in',
      'tokens_out',
      'cost',
      'cost_per_task',
      'cost_per_success',
    ]);
  });

  it('adds pass@k/pass^k with k = epochs, one score per evaluator, and process metrics when traced', () => {
    const records = [
      record({
        task_id: 'a',
        outcome: 'pass',
        evaluations: [
          { evaluator: 'regex', score: 1, passed: true, explanation: '' },
          { evaluator: 'exact_match', score: 1, passed: true, explanation: '' },
        ],
        trace: { prompts: [{ kind: 'unplanned' }] },
      }),
      record({
        task_id: 'a',
        outcome: 'pass',
        epoch: 1,
        evaluations: [{ evaluator: 'regex', score: 1, passed: true, explanation: '' }],
      }),
    ];
    const refs = defaultMetrics(input(records, { epochs: 3 }));
    expect(refs).toContainEqual({ name: 'pass_at_k', options: { k: 3 } });
    expect(refs).toContainEqual({ name: 'pass_hat_k', options: { k: 3 } });
    expect(refs.filter((r) => r.name === 'evaluator_score').map((r) => r.options)).toEqual([
      { evaluator: 'regex' },
      { evaluator: 'exact_match' },
    ]);
    expect(refs.map((r) => r.name)).toContain('first_pass_approval_rate');
    expect(refs.map((r) => r.name)).toContain('overall_score');
    // every default reference is valid
    expect(computeMetrics(refs, input(records, { epochs: 3 }))).toHaveLength(refs.length);
  });
});

describe('every built-in metric is NaN-safe', () => {
  it('gives n/a for empty input', () => {
    for (const result of computeMetrics(everyBuiltin, input([]))) {
      expect(result.value, result.name).toBeNull();
      expect(result.formatted_value, result.name).toBe('n/a');
      expect(result.n, result.name).toBe(0);
      expect(result.stderr, result.name).toBeNull();
      expect(result.ci95, result.name).toBeNull();
    }
  });

  it('gives no SE for a single trial, and an interval only to a rate (Wilson)', () => {
    const one = [record({ task_id: 'a', outcome: 'pass', cost_usd: 0.1, scores: { overall: 1 } })];
    for (const result of computeMetrics(everyBuiltin, input(one))) {
      expect(result.stderr, result.name).toBeNull();
      if (result.ci_method === 'wilson') expect(result.unit, result.name).toBe('ratio');
      else expect(result.ci95, result.name).toBeNull();
    }
  });

  it('returns schema-valid, finite results for arbitrary records', () => {
    const outcome = fc.constantFrom('pass', 'fail', 'error', 'pending' as const);
    const arbitraryRecord = fc.record({
      task: fc.constantFrom('t1', 't2', 't3', 't4'),
      outcome,
      latency: fc.double({ min: 0, max: 1e4, noNaN: true }),
      duration: fc.double({ min: 0, max: 1e4, noNaN: true }),
      cost: fc.option(fc.double({ min: 0, max: 100, noNaN: true })),
      score: fc.double({ min: 0, max: 1, noNaN: true }),
      approval: fc.option(fc.boolean()),
      cluster: fc.option(fc.constantFrom('x', 'y')),
    });
    fc.assert(
      fc.property(
        fc.array(arbitraryRecord, { maxLength: 20 }),
        fc.integer({ min: 1, max: 3 }),
        (drafts, epochs) => {
          const records: RunRecord[] = drafts.map((d) =>
            record({
              task_id: d.task,
              outcome: d.outcome,
              duration_seconds: d.duration,
              cost_usd: d.cost,
              output: { output: 'x', latency: d.latency },
              evaluations: [{ evaluator: 'regex', score: d.score, passed: d.score > 0.5, explanation: '' }],
              metrics: { first_pass_approval: d.approval },
              scores: { overall: d.score },
            }),
          );
          const tasks = ['t1', 't2', 't3', 't4'].map((id, i) => ({
            id,
            weight: 1,
            cluster: drafts[i]?.cluster ?? undefined,
          }));
          for (const result of computeMetrics(everyBuiltin, { records, tasks, epochs })) {
            expect(MetricResultSchema.safeParse(result).success).toBe(true);
            expect(result.details.error).toBeUndefined();
            for (const x of [result.value, result.stderr, ...(result.ci95 ?? [])]) {
              if (x !== null) expect(Number.isFinite(x)).toBe(true);
            }
            if (result.ci95) expect(result.ci95[0]).toBeLessThanOrEqual(result.ci95[1]);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
