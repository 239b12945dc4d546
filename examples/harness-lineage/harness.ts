/**
 * A SIMULATED product-dev harness lineage (v0.2.0 ... v0.5.0) for trying HarnessEval without API
 * keys. It calls no model. For each task it "solves" the work by copying the suite's reference
 * solution (`suites/product-dev/solutions/<task>/`) over the trial's workspace, and reports through
 * the trackers what a planner/developer/reviewer/qa pipeline would: agent calls with tokens and cost,
 * operator prompts, human touchpoints, review verdicts and circuit breakers. How often things go
 * wrong is drawn from a seeded PRNG with the rates of the version (the harness config's
 * `options.options`), so a run is reproducible with the same `--seed` and the versions improve
 * roughly like the seed's timeline table. See README.md.
 *
 * Used by the `function` adapter: `module: ./harness.ts#lineageHarness`.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import type { Harness, HarnessContext, Task } from 'harnesseval';
import { z } from 'zod';
import { poissonQuantile, prng, type Random } from './prng.ts';

/** A version's behaviour. Means are per task; probabilities are per event. */
export const LineageRatesSchema = z
  .object({
    /** Model of the planner and developer (priced from MODEL_PRICES). */
    model: z.string().default('claude-opus-4-1'),
    /** Model of the reviewer and qa agents. */
    review_model: z.string().default('claude-opus-4-1'),
    /** Mean unplanned operator prompts (corrections, nudges) per task. */
    unplanned_prompts: z.number().nonnegative(),
    /** Mean unplanned human touchpoints (escalations, hand edits, questions answered) per task. */
    unplanned_hitl: z.number().nonnegative(),
    /** Probability the reviewer approves the first draft. */
    first_pass_approval: z.number().min(0).max(1),
    /** Probability that one file of the solution is not applied (the work ships incomplete). */
    apply_miss: z.number().min(0).max(1),
    /** Probability that QA sees a failing test that a fix round then repairs. */
    test_failure: z.number().min(0).max(1),
    /** Multiplier on the token counts of every agent call (context size, verbosity). */
    token_scale: z.number().positive().default(1),
  })
  .strict();
export type LineageRates = z.infer<typeof LineageRatesSchema>;

/**
 * List prices in USD per million tokens (input, output), as in `src/instrument/pricing.ts`
 * (as of 2025-08-01); a test keeps the two in step.
 */
export const MODEL_PRICES: Readonly<Record<string, { input: number; output: number }>> = {
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-sonnet-4': { input: 3, output: 15 },
};

/** Typical tokens (in, out) of one call per role, before `token_scale` and jitter. */
const ROLE_TOKENS = {
  planner: [18_000, 3_000],
  developer: [52_000, 21_000],
  reviewer: [26_000, 3_500],
  qa: [21_000, 2_500],
} as const;
type Role = keyof typeof ROLE_TOKENS;

/** The folder of a task's reference solution: `.../codebases/<id>` -> `.../solutions/<id>`. */
export function solutionDirFor(task: Task): string {
  const codebase = task.files['codebase'];
  if (codebase === undefined) throw new Error(`task ${task.id} has no codebase to work in`);
  const solution = join(dirname(dirname(codebase)), 'solutions', basename(codebase));
  if (!existsSync(solution)) throw new Error(`no reference solution for task ${task.id} at ${solution}`);
  return solution;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** One simulated run of a task: the pipeline's events, drawn from the version's rates. */
class SimulatedRun {
  constructor(
    private readonly ctx: HarnessContext,
    private readonly rates: LineageRates,
    private readonly random: Random,
  ) {}

  call(role: Role): void {
    const [tokensIn, tokensOut] = ROLE_TOKENS[role];
    const jitter = () => 0.75 + this.random() * 0.5;
    const model = role === 'planner' || role === 'developer' ? this.rates.model : this.rates.review_model;
    const tokens_in = Math.round(tokensIn * this.rates.token_scale * jitter());
    const tokens_out = Math.round(tokensOut * this.rates.token_scale * jitter());
    const price = MODEL_PRICES[model];
    this.ctx.agents.record({
      role,
      model,
      provider: 'anthropic',
      tokens_in,
      tokens_out,
      ...(price === undefined
        ? {}
        : { cost_usd: (tokens_in * price.input + tokens_out * price.output) / 1_000_000 }),
      duration_seconds: Math.round((20 + this.random() * 100) * (tokens_out / 1000)) / 10,
      metadata: { simulated: true },
    });
  }

  /** Unplanned human touchpoints: escalations answered, hand edits, extra reviews. */
  unplannedHuman(count: number): void {
    const actions = ['answer', 'edit', 'review'] as const;
    for (let i = 0; i < count; i++) {
      const action = actions[Math.floor(this.random() * actions.length)] ?? 'answer';
      const minutes = Math.round((1 + this.random() * 5) * 10) / 10;
      this.ctx.hitl.record({ action, kind: 'unplanned', minutes, note: 'simulated escalation' });
    }
  }
}

/**
 * Every decision of a run is one uniform draw, taken in a fixed order from `ctx.seed` before any
 * work: a version fires an event when its draw falls under the version's rate. Two versions run
 * with the same seed therefore share their draws (common random numbers), so a better rate can
 * only mean fewer incidents, task by task; token counts come from a second stream.
 */
interface Draws {
  readonly files: readonly number[];
  readonly review: number;
  readonly test: number;
  readonly prompts: number;
  readonly hitl: number;
}

function drawDecisions(seed: number, fileCount: number): Draws {
  const decide = prng(seed);
  return {
    files: Array.from({ length: fileCount }, () => decide()),
    review: decide(),
    test: decide(),
    prompts: decide(),
    hitl: decide(),
  };
}

/**
 * The lineage harness. Options (the version's rates) come from the harness config; every random
 * draw comes from `ctx.seed`, so the same seed gives the same events and the same applied files.
 */
export const lineageHarness: Harness = {
  name: 'tf-product-dev-harness',
  async run(task, ctx) {
    const rates = LineageRatesSchema.parse(ctx.options);
    const workspace = ctx.workspace;
    if (workspace === undefined) throw new Error(`task ${task.id} has no workspace to work in`);
    const solution = solutionDirFor(task);
    const files = await filesUnder(solution);
    const draws = drawDecisions(ctx.seed, files.length);
    const sim = new SimulatedRun(ctx, rates, prng(ctx.seed ^ 0x5bd1e995));

    ctx.prompts.planned(`Implement: ${task.description ?? task.id}`, 'planner');
    sim.call('planner');
    ctx.hitl.record({ action: 'review', kind: 'planned', minutes: 3, note: 'plan review' });

    // Drafting: the developer applies the reference solution; a weaker version misses files.
    const applied: string[] = [];
    const missed: string[] = [];
    for (const [index, file] of files.entries()) {
      if (ctx.signal.aborted) throw new Error('stopped: the trial was aborted');
      if ((draws.files[index] ?? 1) < rates.apply_miss) {
        missed.push(file);
        continue;
      }
      await ctx.tools.wrap('write_file', { path: file }, async () => {
        await mkdir(dirname(join(workspace, file)), { recursive: true });
        await copyFile(join(solution, file), join(workspace, file));
      });
      applied.push(file);
    }
    sim.call('developer');

    // Review: approved at first pass, or rejected and sent round again (CB2).
    sim.call('reviewer');
    if (draws.review < rates.first_pass_approval) {
      ctx.hitl.record({ action: 'approve', kind: 'planned', minutes: 2 });
    } else {
      ctx.hitl.record({ action: 'reject', kind: 'planned', minutes: 4, note: 'changes requested' });
      ctx.breakers.fire('CB2:review-rejection', {
        trigger: 'reviewer rejected the first draft',
        resolution: 'developer revised the change',
      });
      sim.call('developer');
      sim.call('reviewer');
      ctx.hitl.record({ action: 'approve', kind: 'unplanned', minutes: 3 });
    }

    // QA: a failing test costs a fix round (CB1); a missed file is still missing afterwards.
    sim.call('qa');
    if (missed.length > 0 || draws.test < rates.test_failure) {
      ctx.breakers.fire('CB1:test-failure', {
        trigger: missed.length > 0 ? 'acceptance tests fail' : 'a unit test failed',
        resolution: missed.length > 0 ? 'escalated; shipped incomplete' : 'fixed and re-run',
      });
      sim.call('developer');
      sim.call('qa');
    }

    for (let i = poissonQuantile(draws.prompts, rates.unplanned_prompts); i > 0; i--)
      ctx.prompts.unplanned('simulated correction from the operator', 'developer');
    sim.unplannedHuman(poissonQuantile(draws.hitl, rates.unplanned_hitl));

    return { output: { applied, missed }, metadata: { simulated: true } };
  },
};
