/**
 * A simulated harness lineage for the comparison and timeline examples: a 24-task suite in four
 * clusters and an in-process harness whose versions get better at the work (fewer unplanned
 * human interventions, more first-pass approvals, lower cost). Outcomes are deterministic — a
 * hash of task and version stands in for an LLM's variability — so the examples print the same
 * numbers every time. Replace `simulatedHarness` with your own agent to evaluate a real harness.
 */
import {
  AgentOutputSchema,
  type AgentV1,
  type Experiment,
  HarnessConfigSchema,
  runExperiment,
  type Suite,
  SuiteSchema,
} from 'harnesseval';

/** Each version's skill: how hard a task it still gets right, and how much help it needs. */
export const LINEAGE = [
  { version: '0.2.0', date: '2026-04-07', skill: 0.55 },
  { version: '0.3.0', date: '2026-04-21', skill: 0.66 },
  { version: '0.3.1', date: '2026-05-05', skill: 0.68 },
  { version: '0.4.0', date: '2026-05-19', skill: 0.82 },
  { version: '0.5.0', date: '2026-06-02', skill: 0.9 },
] as const;

export type LineageVersion = (typeof LINEAGE)[number]['version'];

/** A number in [0, 1) from text (FNV-1a): the same task and version always get the same draw. */
function unitHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 2 ** 32;
}

const AREAS = ['auth', 'crud-api', 'dashboard', 'billing'] as const;

export function lineageSuite(): Suite {
  const tasks = Array.from({ length: 24 }, (_, i) => {
    const area = AREAS[i % AREAS.length] ?? 'auth';
    return {
      id: `${area}-${String(i + 1).padStart(2, '0')}`,
      input: `Implement ${area} feature ${i + 1}`,
      expected: 'DONE',
      cluster: area,
    };
  });
  return SuiteSchema.parse({
    id: 'product-dev-core-v1',
    name: 'Product development core (simulated)',
    tasks,
    evaluators: [{ name: 'contains', options: {} }],
    thresholds: { success_rate: { max_regression: 0.05, require_significant: true } },
  });
}

/** The in-process harness of one version. */
export function simulatedHarness(version: LineageVersion): AgentV1 {
  const skill = LINEAGE.find((v) => v.version === version)?.skill ?? 0.5;
  return {
    specificationVersion: 'v1',
    name: `tf-product-dev-harness@${version}`,
    async run(_input, ctx) {
      const difficulty = unitHash(ctx.task.id);
      const luck = unitHash(`${ctx.task.id}:${version}:${ctx.epoch}`);
      const solved = difficulty < skill + (luck - 0.5) * 0.2;
      const unplanned = Math.max(0, Math.round((1 - skill) * 8 * difficulty + (solved ? 0 : 2)));
      const approved = solved && luck < skill + 0.1;
      return AgentOutputSchema.parse({
        output: solved ? 'DONE: feature implemented, tests pass' : 'stuck: tests still failing',
        latency: 0.01,
        usage: { tokens_in: 0, tokens_out: 0, cached_tokens: 0, cost_usd: null },
        trace: {
          agent_calls: [
            {
              role: 'builder',
              tokens_in: 1000,
              tokens_out: 400,
              cost_usd: Number((20 * (1.1 - skill * 0.5) * (0.5 + difficulty)).toFixed(2)),
            },
          ],
          prompts: Array.from({ length: Math.ceil(unplanned / 2) }, () => ({ kind: 'unplanned' as const })),
          human: [
            { action: approved ? 'approve' : 'reject', kind: 'planned', minutes: 5 },
            ...Array.from({ length: unplanned }, () => ({
              action: 'edit' as const,
              kind: 'unplanned' as const,
              minutes: 4,
            })),
          ],
        },
      });
    },
  };
}

/**
 * Runs the suite through one version. The run date is set to the version's release date so the
 * timeline reads like the seed's (a real lineage gets its dates from when it ran).
 */
export async function runVersion(
  version: LineageVersion,
  suite: Suite = lineageSuite(),
): Promise<Experiment> {
  const experiment = await runExperiment({
    suite,
    harness: HarnessConfigSchema.parse({ name: 'tf-product-dev-harness', version, adapter: 'in-process' }),
    agent: simulatedHarness(version),
    settings: { epochs: 1, concurrency: 8 },
    experimentId: `sim-${version}`,
  });
  const date = LINEAGE.find((v) => v.version === version)?.date;
  return date ? { ...experiment, created_at: `${date}T09:00:00.000Z` } : experiment;
}
