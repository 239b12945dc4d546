import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Experiment } from '../../src/core/experiment.ts';
import { RunRecordSchema } from '../../src/core/run-record.ts';
import { loadHarnessConfig, loadSuite } from '../../src/formats/index.ts';
import { runExperiment } from '../../src/runner/runner.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const suiteFile = join(root, 'suites/product-dev/suite.yaml');

async function runVersion(version: string, filters: { id?: string } = {}): Promise<Experiment> {
  const harnessFile = join(root, `examples/harness-lineage/v${version}.yaml`);
  return runExperiment({
    suite: await loadSuite(suiteFile),
    harness: await loadHarnessConfig(harnessFile),
    harnessBaseDir: dirname(harnessFile),
    settings: { concurrency: 3, seed: 7, filters },
    env: {},
  });
}

const metric = (e: Experiment, name: string): number => {
  const value = e.metrics.find((m) => m.name === name)?.value;
  if (typeof value !== 'number') throw new Error(`no metric ${name}`);
  return value;
};
const mean = (e: Experiment, pick: (r: Experiment['records'][number]) => number) =>
  e.records.reduce((s, r) => s + pick(r), 0) / e.records.length;

describe('the simulated harness lineage on the product-dev suite', () => {
  it('v0.5.0 beats v0.2.0 on the process metrics and the score, reproducibly', async () => {
    const [old, next] = [await runVersion('0.2.0'), await runVersion('0.5.0')];
    for (const e of [old, next]) {
      expect(e.records).toHaveLength(6);
      for (const r of e.records) {
        expect(RunRecordSchema.safeParse(r).success).toBe(true);
        expect(r.error).toBeUndefined();
        expect(r.harness_config).toMatchObject({ name: 'tf-product-dev-harness', trust_tier: 'supervised' });
        expect(Object.keys(r.by_role).sort()).toEqual(['developer', 'planner', 'qa', 'reviewer']);
        // Rubric criteria have no judge here: pending, not failed.
        expect(r.criteria.some((c) => c.status === 'pending')).toBe(true);
      }
    }
    expect(mean(next, (r) => r.metrics.prompts_unplanned)).toBeLessThan(
      mean(old, (r) => r.metrics.prompts_unplanned),
    );
    expect(mean(next, (r) => r.metrics.hitl_unplanned)).toBeLessThan(
      mean(old, (r) => r.metrics.hitl_unplanned),
    );
    expect(mean(next, (r) => r.cost_usd ?? 0)).toBeLessThan(mean(old, (r) => r.cost_usd ?? 0));
    expect(mean(next, (r) => r.metrics.tokens_in)).toBeLessThan(mean(old, (r) => r.metrics.tokens_in));
    const fpa = (e: Experiment) => mean(e, (r) => (r.metrics.first_pass_approval === true ? 1 : 0));
    expect(fpa(next)).toBeGreaterThanOrEqual(fpa(old));
    expect(metric(next, 'functional_completeness')).toBeGreaterThan(metric(old, 'functional_completeness'));
    // Without a judge the rubric criteria wait, so the overall score covers the decided trials only
    // (v0.5.0 has none yet) and says how many are pending, never counting them as 0 or 1.
    const overall = (e: Experiment) => e.metrics.find((m) => m.name === 'overall_score');
    expect(next.scores['overall']).toBeUndefined();
    expect(overall(next)).toMatchObject({ value: null, ci95: null, details: { decided: 0, pending: 6 } });
    const decided = old.records.filter((r) => r.outcome !== 'pending').length;
    expect(overall(old)?.details).toMatchObject({ decided, pending: 6 - decided });
    // The same seed gives the same run (re-run the first task alone: it keeps its seed).
    const again = await runVersion('0.2.0', { id: 'auth-implementation' });
    const first = old.records.find((r) => r.task_id === 'auth-implementation')!;
    const repeat = again.records[0]!;
    const { human_minutes: _a, ...firstMetrics } = first.metrics;
    const { human_minutes: _b, ...repeatMetrics } = repeat.metrics;
    expect(repeatMetrics).toEqual(firstMetrics);
    expect(repeat.metrics.human_minutes).toBeCloseTo(first.metrics.human_minutes, 9);
    expect(repeat.by_role).toEqual(first.by_role);
    expect(repeat.criteria.map((c) => c.status)).toEqual(first.criteria.map((c) => c.status));
    expect(repeat.cost_usd).toBeCloseTo(first.cost_usd ?? -1, 9);
  }, 300_000);
});
