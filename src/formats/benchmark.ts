import { z } from 'zod';
import type { Diagnostic } from '../core/diagnostic.ts';
import type { HarnessConfig } from '../core/harness-config.ts';
import type { EvaluatorRef, MetricRef } from '../core/plugin-ref.ts';
import type { Suite, Threshold } from '../core/suite.ts';
import { defaultScoring, ThresholdSchema } from '../core/suite.ts';
import type { Task } from '../core/task.ts';
import { parseMetricAlias } from '../metrics/catalog.ts';
import { issuesToDiagnostics, type Locate, located } from './issues.ts';
import {
  checkAdapter,
  checkEvaluatorRef,
  checkMetricRef,
  checkThresholds,
  isRecord,
  type PluginCheckContext,
  type PluginNames,
} from './plugin-check.ts';
import { patternProblem } from './regex-rule.ts';

const PluginEntrySchema = z
  .object({
    name: z.string().min(1),
    options: z.record(z.string(), z.unknown()).default({}),
    negate: z.boolean().default(false),
    label: z.string().optional(),
  })
  .strict();

const MetricEntrySchema = z.union([
  z.string().min(1),
  z.object({ name: z.string().min(1), options: z.record(z.string(), z.unknown()).default({}) }).strict(),
]);

/** Fields of `agent:` that describe the harness; every other key is an adapter option. */
const HARNESS_FIELDS = ['name', 'version', 'model', 'agents', 'trust_tier', 'metadata', 'options'] as const;

const AgentSchema = z
  .object({
    adapter: z.string().min(1),
    name: z.string().min(1).optional(),
    version: z.string().optional(),
    model: z.string().optional(),
    agents: z.array(z.string()).optional(),
    trust_tier: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    options: z.record(z.string(), z.unknown()).optional(),
  })
  .catchall(z.unknown());

const TestSchema = z
  .object({
    id: z.union([z.string().min(1), z.number()]),
    name: z.string().optional(),
    description: z.string().optional(),
    input: z.union([z.string(), z.record(z.string(), z.unknown())]),
    expected: z.unknown().optional(),
    evaluators: z.array(PluginEntrySchema).default([]),
    tags: z.array(z.string()).default([]),
    /** Seconds. */
    timeout: z.number().positive().optional(),
    difficulty: z.enum(['easy', 'medium', 'hard']).optional(),
    weight: z.number().nonnegative().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** Seed-000 benchmark file (`version: "1.0"`), YAML or JSON. */
export const BenchmarkFileSchema = z
  .object({
    version: z.literal('1.0'),
    name: z.string().min(1),
    description: z.string().default(''),
    agent: AgentSchema.optional(),
    evaluators: z.array(PluginEntrySchema).default([]),
    metrics: z.array(MetricEntrySchema).default([]),
    thresholds: z.record(z.string(), ThresholdSchema).default({}),
    tests: z.array(TestSchema).min(1),
    /** Plugin modules (paths relative to this file) the CLI loads before it checks the names here. */
    plugins: z.array(z.string().min(1)).default([]),
  })
  .strict();
export type BenchmarkFile = z.infer<typeof BenchmarkFileSchema>;

export type FileResult<T> =
  | { readonly ok: true; readonly value: T; readonly count: number }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Validates a parsed benchmark document and converts it to a Suite (without `source`). */
export function benchmarkToSuite(
  file: string,
  raw: unknown,
  locate: Locate,
  options: { readonly checkAgent?: boolean; readonly plugins?: PluginNames | undefined } = {},
): FileResult<Suite> {
  const diagnostics: Diagnostic[] = [];
  const ctx: PluginCheckContext = {
    file,
    locate,
    diagnostics,
    checkAgent: options.checkAgent !== false,
    plugins: options.plugins,
  };
  const parsed = BenchmarkFileSchema.safeParse(raw, { reportInput: true });
  if (!parsed.success) diagnostics.push(...issuesToDiagnostics(parsed.error.issues, file, locate));
  checkReferences(ctx, raw);
  if (!parsed.success || diagnostics.length > 0) return { ok: false, diagnostics };
  const b = parsed.data;
  const tasks = b.tests.map((t, i) => testToTask(t, { file, line: locate(['tests', i]).line }));
  const suite: Suite = {
    schema_version: 1,
    id: b.name,
    name: b.name,
    description: b.description,
    tasks,
    evaluators: b.evaluators.map(toEvaluatorRef),
    metrics: b.metrics.map(toMetricRef),
    thresholds: Object.fromEntries(Object.entries(b.thresholds).map(([k, t]): [string, Threshold] => [k, t])),
    scoring: defaultScoring(),
    rubrics: [],
    ...(b.agent === undefined ? {} : { harness: agentToHarness(b.name, b.agent) }),
  };
  return { ok: true, value: suite, count: tasks.length };
}

/** Registry names, options, unique ids and threshold ranges, checked on the raw document. */
function checkReferences(ctx: PluginCheckContext, raw: unknown): void {
  if (!isRecord(raw)) return;
  const agent = raw['agent'];
  if (isRecord(agent)) {
    const { options, inline } = splitAgent(agent);
    const optionsPath =
      isRecord(agent['options']) && Object.keys(inline).length === 0 ? ['agent', 'options'] : ['agent'];
    checkAdapter(ctx, agent['adapter'], options, ['agent', 'adapter'], optionsPath);
  }
  const evaluators = raw['evaluators'];
  if (Array.isArray(evaluators))
    evaluators.forEach((e, i) => {
      checkEvaluatorRef(ctx, e, ['evaluators', i]);
    });
  const metrics = raw['metrics'];
  if (Array.isArray(metrics))
    metrics.forEach((m, i) => {
      checkMetricRef(ctx, m, ['metrics', i]);
    });
  checkThresholds(ctx, raw['thresholds']);
  const tests = raw['tests'];
  if (!Array.isArray(tests)) return;
  const seen = new Map<string, number>();
  const suitePatterns = expectedPatternFlags(evaluators);
  tests.forEach((test, i) => {
    if (!isRecord(test)) return;
    const evs = test['evaluators'];
    if (Array.isArray(evs))
      evs.forEach((e, j) => {
        checkEvaluatorRef(ctx, e, ['tests', i, 'evaluators', j]);
      });
    checkExpectedPattern(
      ctx,
      test,
      [...suitePatterns, ...expectedPatternFlags(evs)],
      ['tests', i, 'expected'],
    );
    const id = test['id'];
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const first = seen.get(String(id));
    if (first === undefined) seen.set(String(id), i);
    else {
      const at = ['tests', i, 'id'];
      ctx.diagnostics.push(
        located(
          ctx.file,
          ctx.locate(at),
          at,
          `duplicate test id "${id}" (first used by tests[${first}])`,
          'unique test ids',
        ),
      );
    }
  });
}

/** The flags of each `regex` evaluator without a `pattern`: it takes the test's `expected` as one. */
function expectedPatternFlags(evaluators: unknown): string[] {
  if (!Array.isArray(evaluators)) return [];
  return evaluators.flatMap((e) => {
    if (!isRecord(e) || e['name'] !== 'regex') return [];
    const options = isRecord(e['options']) ? e['options'] : {};
    if (options['pattern'] !== undefined) return [];
    return [typeof options['flags'] === 'string' ? options['flags'] : ''];
  });
}

/** A test's `expected` used as a regex pattern passes the same check as a `pattern` option. */
function checkExpectedPattern(
  ctx: PluginCheckContext,
  test: Record<string, unknown>,
  flagSets: readonly string[],
  at: (string | number)[],
): void {
  const expected = test['expected'];
  if (typeof expected !== 'string') return;
  for (const flags of new Set(flagSets)) {
    const problem = patternProblem(expected, flags);
    if (problem === undefined) continue;
    const d = located(ctx.file, ctx.locate(at), at, problem.message, problem.expected);
    ctx.diagnostics.push(problem.code === undefined ? d : { ...d, code: problem.code });
    return;
  }
}

/** The seed writes adapter options inline beside `adapter:`; a nested `options:` map works too. */
function splitAgent(agent: Record<string, unknown>): {
  options: Record<string, unknown>;
  inline: Record<string, unknown>;
} {
  const inline: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(agent)) {
    if (key === 'adapter' || (HARNESS_FIELDS as readonly string[]).includes(key)) continue;
    inline[key] = value;
  }
  const nested = isRecord(agent['options']) ? agent['options'] : {};
  return { options: { ...nested, ...inline }, inline };
}

function agentToHarness(benchmark: string, agent: z.infer<typeof AgentSchema>): HarnessConfig {
  const { options } = splitAgent(agent);
  return {
    schema_version: 1,
    name: agent.name ?? benchmark,
    version: agent.version ?? '0.0.0',
    adapter: agent.adapter,
    options,
    ...(agent.model === undefined ? {} : { model: agent.model }),
    agents: agent.agents ?? [],
    ...(agent.trust_tier === undefined ? {} : { trust_tier: agent.trust_tier }),
    metadata: agent.metadata ?? {},
  };
}

function toEvaluatorRef(e: z.infer<typeof PluginEntrySchema>): EvaluatorRef {
  return {
    name: e.name,
    options: e.options,
    negate: e.negate,
    ...(e.label === undefined ? {} : { label: e.label }),
  };
}

function toMetricRef(m: z.infer<typeof MetricEntrySchema>): MetricRef {
  if (typeof m === 'string') return parseMetricAlias(m);
  const alias = parseMetricAlias(m.name);
  return { name: alias.name, options: { ...alias.options, ...m.options } };
}

function testToTask(t: z.infer<typeof TestSchema>, source: { file: string; line: number }): Task {
  return {
    id: String(t.id),
    ...(t.name === undefined ? {} : { name: t.name }),
    ...(t.description === undefined ? {} : { description: t.description }),
    input: t.input,
    ...(t.expected === undefined ? {} : { expected: t.expected }),
    criteria: [],
    evaluators: t.evaluators.map(toEvaluatorRef),
    tags: t.tags,
    ...(t.difficulty === undefined ? {} : { difficulty: t.difficulty }),
    weight: t.weight ?? 1,
    ...(t.timeout === undefined ? {} : { timeout_seconds: t.timeout }),
    files: {},
    metadata: t.metadata ?? {},
    source,
  };
}
