import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MetricRef } from '../../../src/core/plugin-ref.ts';
import type { RunRecord } from '../../../src/core/run-record.ts';
import { SuiteSchema } from '../../../src/core/suite.ts';
import { builtinMetricNames } from '../../../src/metrics/catalog.ts';
import { builtinMetricsOnly, metricRecord } from '../../../src/metrics/metric-record.ts';
import { InOrder } from '../../../src/runner/in-order.ts';
import { aggregateExperiment } from '../../../src/scoring/experiment-aggregate.ts';
import { ExperimentStream } from '../../../src/scoring/experiment-stream.ts';
import { record } from './records.ts';

const TASKS = ['t0', 't1', 't2', 't3', 't4'];
const EVALUATORS = ['exact_match', 'contains', 'regex'];

/** Every built-in metric, with the options the ones that need them take. */
const everyBuiltin: MetricRef[] = builtinMetricNames.flatMap((name): MetricRef[] => {
  if (name === 'evaluator_score') return EVALUATORS.map((evaluator) => ({ name, options: { evaluator } }));
  if (name === 'pass_at_k' || name === 'pass_hat_k') return [{ name, options: { k: 2 } }];
  return [{ name, options: {} }];
});

/** A trial with everything a metric or the suite score could read, varied. */
const trial = fc
  .record({
    task: fc.constantFrom(...TASKS),
    outcome: fc.constantFrom('pass', 'fail', 'error', 'pending' as const),
    errorKind: fc.option(fc.constantFrom('timeout', 'transient', 'environment', 'infra', 'crash' as const), {
      nil: undefined,
    }),
    latency: fc.oneof(fc.constant(0), fc.double({ min: 0.001, max: 30, noNaN: true })),
    duration: fc.double({ min: 0, max: 60, noNaN: true }),
    cost: fc.option(fc.double({ min: 0, max: 2, noNaN: true }), { nil: null }),
    tokensIn: fc.nat(5000),
    tokensOut: fc.nat(5000),
    unpriced: fc.option(fc.nat(3), { nil: undefined }),
    evaluations: fc.array(
      fc.record({
        evaluator: fc.constantFrom(...EVALUATORS),
        score: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
      { maxLength: 3 },
    ),
    criteria: fc.array(
      fc.record({
        verification: fc.constantFrom('automated', 'rubric', 'human' as const),
        status: fc.constantFrom('passed', 'failed', 'error', 'pending' as const),
      }),
      { maxLength: 3 },
    ),
    overall: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    calls: fc.nat(2),
    prompts: fc.nat(2),
    human: fc.nat(2),
    approval: fc.option(fc.boolean(), { nil: null }),
  })
  .map((t) =>
    record({
      task_id: t.task,
      outcome: t.outcome,
      ...(t.errorKind === undefined ? {} : { error_kind: t.errorKind }),
      ...(t.outcome === 'error' ? { error: 'it broke' } : {}),
      duration_seconds: t.duration,
      cost_usd: t.cost,
      input: 'a long input the metrics never read',
      expected: { answer: 42 },
      output: {
        output: 'an output the metrics never read',
        latency: t.latency,
        usage: {
          tokens_in: t.tokensIn,
          tokens_out: t.tokensOut,
          ...(t.unpriced === undefined ? {} : { unpriced_calls: t.unpriced }),
        },
        metadata: { note: 'x' },
        ...(t.errorKind === undefined ? {} : { error_kind: t.errorKind }),
      },
      trace: {
        agent_calls: Array.from({ length: t.calls }, () => ({ model: 'm', tokens_in: 3 })),
        prompts: Array.from({ length: t.prompts }, () => ({ kind: 'unplanned' as const, text: 'go on' })),
        human: Array.from({ length: t.human }, () => ({
          action: 'review' as const,
          kind: 'planned' as const,
        })),
      },
      evaluations: t.evaluations.map((e) => ({
        evaluator: e.evaluator,
        score: e.score,
        passed: e.score >= 0.5,
        explanation: 'why',
        details: { actual: 'y' },
      })),
      criteria: t.criteria.map((c, i) => ({
        id: `c${i}`,
        verification: c.verification,
        status: c.status,
        score: c.status === 'pending' ? null : c.status === 'passed' ? 1 : 0,
        explanation: 'because',
      })),
      metrics: {
        prompts_total: t.prompts,
        prompts_unplanned: t.prompts,
        hitl_total: t.human,
        hitl_planned: t.human,
        first_pass_approval: t.approval,
        acceptance_criteria_total: t.criteria.length,
        acceptance_criteria_passed: t.criteria.filter((c) => c.status === 'passed').length,
        tokens_in: t.tokensIn,
        tokens_out: t.tokensOut,
        agent_calls: t.calls,
        human_minutes: t.human * 1.5,
      },
      scores: t.overall === undefined ? {} : { overall: t.overall, functional_completeness: t.overall },
      metadata: { restored_files: ['test.js'] },
    }),
  );

/** Records with epochs numbered per task, as a run stores them. */
const run = fc.array(trial, { minLength: 0, maxLength: 40 }).map((records) => {
  const epochs = new Map<string, number>();
  return records.map((r): RunRecord => {
    const epoch = epochs.get(r.task_id) ?? 0;
    epochs.set(r.task_id, epoch + 1);
    return { ...r, epoch };
  });
});

const suite = SuiteSchema.parse({
  id: 's',
  tasks: TASKS.map((id, i) => ({ id, input: id, weight: i + 1, ...(i < 2 ? { cluster: 'a' } : {}) })),
  thresholds: { success_rate: { min: 0.5 } },
});

function aggregate(records: readonly RunRecord[], metrics?: MetricRef[]) {
  return aggregateExperiment({ suite, records, tasks: suite.tasks, epochs: 2, metrics });
}

/** The records as a run sorts them before it aggregates: by task in suite order, then epoch. */
function sorted(records: readonly RunRecord[]): RunRecord[] {
  return [...records].sort(
    (a, b) => TASKS.indexOf(a.task_id) - TASKS.indexOf(b.task_id) || a.epoch - b.epoch,
  );
}

/**
 * What a run without kept records computes: its records, finishing in `arrival` order (some never
 * finishing), put in plan order and folded one by one.
 */
function streamed(records: readonly RunRecord[], arrival: readonly number[], metrics?: MetricRef[]) {
  const tasks = suite.tasks.map((t) => ({ id: t.id, weight: t.weight, cluster: t.cluster }));
  const epochs = Math.max(1, ...records.map((r) => r.epoch + 1));
  const stream = ExperimentStream.create({ suite, tasks, epochs: 2, metrics });
  if (stream === undefined) throw new Error('every built-in folds');
  const order = new InOrder(TASKS, epochs, (r) => stream.add(r));
  for (const task of TASKS) for (let epoch = 0; epoch < epochs; epoch++) order.expect(task, epoch);
  for (const i of arrival) order.put(records[i]!);
  order.finish();
  return stream.aggregate();
}

describe('metricRecord', () => {
  it('gives every built-in metric, the suite score and the thresholds the numbers of the whole records', () => {
    fc.assert(
      fc.property(run, (records) => {
        const cut = records.map(metricRecord);
        expect(aggregate(cut, everyBuiltin)).toEqual(aggregate(records, everyBuiltin));
        // The default choice of metrics (which depends on traces and evaluators) too.
        expect(aggregate(cut)).toEqual(aggregate(records));
      }),
      { seed: 15, numRuns: 60 },
    );
  });

  it('folded as they finish, in any order, gives every metric the numbers of the whole sorted records', () => {
    const shuffled = run.chain((records) =>
      fc.tuple(
        fc.constant(records),
        fc.shuffledSubarray(
          records.map((_, i) => i),
          { minLength: records.length },
        ),
      ),
    );
    fc.assert(
      fc.property(shuffled, ([records, arrival]) => {
        const whole = sorted(records);
        expect(streamed(records, arrival, everyBuiltin)).toEqual(aggregate(whole, everyBuiltin));
        expect(streamed(records.map(metricRecord), arrival)).toEqual(aggregate(whole));
      }),
      { seed: 15, numRuns: 60 },
    );
  });

  it('folds the trials that finished when some never do', () => {
    fc.assert(
      fc.property(
        run.chain((records) => fc.tuple(fc.constant(records), fc.subarray(records.map((_, i) => i)))),
        ([records, finished]) => {
          const arrival = [...finished].reverse();
          const whole = sorted(finished.map((i) => records[i]!));
          expect(streamed(records, arrival)).toEqual(aggregate(whole));
        },
      ),
      { seed: 16, numRuns: 40 },
    );
  });

  it('keeps the sign of a trace that only the default choice of metrics reads', () => {
    const traces = [
      { agent_calls: [{ model: 'm' }] },
      { prompts: [{ kind: 'planned' as const }] },
      { human: [{ action: 'review' as const, kind: 'planned' as const }] },
      { circuit_breakers: [{ type: 'loop' }] },
    ];
    for (const trace of traces) {
      const records = [record({ task_id: 't0', outcome: 'pass', trace })];
      const names = aggregate(records.map(metricRecord)).metrics.map((m) => m.name);
      expect(names).toContain('prompts_total');
      expect(names).toEqual(aggregate(records).metrics.map((m) => m.name));
    }
  });

  it('drops what the metrics never read', () => {
    const [whole] = fc.sample(trial, { seed: 3, numRuns: 1 });
    const cut = metricRecord(whole!);
    expect(cut.input).toBeUndefined();
    expect(cut.expected).toBeUndefined();
    expect(cut.output.output).toBeNull();
    expect(cut.output.metadata).toEqual({});
    expect(cut.evaluations.every((e) => e.explanation === '' && Object.keys(e.details).length === 0)).toBe(
      true,
    );
    expect(cut.metadata).toEqual({});
    expect(JSON.stringify(cut).length).toBeLessThan(JSON.stringify(whole).length);
  });

  it('says a plugin metric needs whole records', () => {
    expect(
      builtinMetricsOnly([
        { name: 'success_rate', options: {} },
        { name: 'pass@3', options: {} },
      ]),
    ).toBe(true);
    expect(builtinMetricsOnly([{ name: 'my_plugin_metric', options: {} }])).toBe(false);
  });
});
