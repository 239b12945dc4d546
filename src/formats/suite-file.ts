import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Diagnostic } from '../core/diagnostic.ts';
import { JudgeSettingSchema } from '../core/judge.ts';
import type { Rubric } from '../core/rubric.ts';
import { SandboxConfigSchema } from '../core/sandbox-config.ts';
import type { Suite } from '../core/suite.ts';
import { defaultScoring, ScoringSchema, ThresholdSchema } from '../core/suite.ts';
import type { Task } from '../core/task.ts';
import { parseMetricAlias } from '../metrics/catalog.ts';
import type { FileResult } from './benchmark.ts';
import { issuesToDiagnostics, type Locate } from './issues.ts';
import {
  checkEvaluatorRef,
  checkMetricRef,
  checkThresholds,
  isRecord,
  type PluginCheckContext,
  type PluginNames,
} from './plugin-check.ts';
import { refTarget, resolveRef } from './refs.ts';
import { loadRubricInto } from './rubric-file.ts';
import { sandboxRelativeTo } from './sandbox-paths.ts';
import { taskSpecToTask } from './task-spec.ts';
import { parseYamlSource } from './yaml-source.ts';

/** Seed-004 eval suite YAML. */
export const SuiteFileSchema = z
  .object({
    suite_id: z.string().min(1),
    name: z.string().optional(),
    domain: z.string().optional(),
    description: z.string().optional(),
    tasks: z
      .array(z.object({ ref: z.string().min(1), weight: z.number().nonnegative().default(1) }).strict())
      .min(1),
    scoring: ScoringSchema.default(defaultScoring),
    thresholds: z.record(z.string(), ThresholdSchema).default({}),
    evaluators: z
      .array(
        z
          .object({ name: z.string().min(1), options: z.record(z.string(), z.unknown()).default({}) })
          .strict(),
      )
      .default([]),
    metrics: z
      .array(
        z.union([
          z.string().min(1),
          z
            .object({ name: z.string().min(1), options: z.record(z.string(), z.unknown()).default({}) })
            .strict(),
        ]),
      )
      .default([]),
    /** `ref:rubric.yaml` */
    rubric: z.string().optional(),
    /** The LLM judge for rubric criteria (`--judge` on the command line overrides it). */
    judge: JudgeSettingSchema.optional(),
    /** Plugin modules (paths relative to this file) the CLI loads before it checks the names here. */
    plugins: z.array(z.string().min(1)).default([]),
    /** Run the tasks' harness and checks in a sandbox (a harness config or `--sandbox` overrides it). */
    sandbox: SandboxConfigSchema.optional(),
  })
  .strict();

export interface SuiteLoad {
  readonly suite: Suite;
  /** Every file the suite read (itself first), for the suite hash. */
  readonly files: readonly string[];
}

/** Validates a parsed suite, loads every referenced task spec and rubric, and builds the Suite. */
export function suiteFileToSuite(
  file: string,
  raw: unknown,
  locate: Locate,
  plugins?: PluginNames,
): FileResult<SuiteLoad> {
  const diagnostics: Diagnostic[] = [];
  const parsed = SuiteFileSchema.safeParse(raw, { reportInput: true });
  if (!parsed.success) diagnostics.push(...issuesToDiagnostics(parsed.error.issues, file, locate));
  const ctx: PluginCheckContext = { file, locate, diagnostics, plugins };
  const tasks: Task[] = [];
  const rubrics = new Map<string, Rubric>();
  const files = [file];
  if (isRecord(raw)) {
    if (Array.isArray(raw['evaluators']))
      raw['evaluators'].forEach((e: unknown, i: number) => {
        checkEvaluatorRef(ctx, e, ['evaluators', i]);
      });
    if (Array.isArray(raw['metrics']))
      raw['metrics'].forEach((m: unknown, i: number) => {
        checkMetricRef(ctx, m, ['metrics', i]);
      });
    checkThresholds(ctx, raw['thresholds']);
    if (typeof raw['rubric'] === 'string') {
      const target = refTarget(raw['rubric']) ?? raw['rubric'];
      const path = resolveRef(file, target, 'file', { locate, path: ['rubric'], diagnostics });
      if (path !== undefined) loadRubricInto(path, rubrics, files, diagnostics);
    }
    if (Array.isArray(raw['tasks']))
      raw['tasks'].forEach((entry: unknown, i: number) => {
        if (!isRecord(entry) || typeof entry['ref'] !== 'string') return;
        const target = refTarget(entry['ref']) ?? entry['ref'];
        const path = resolveRef(file, target, 'file', { locate, path: ['tasks', i, 'ref'], diagnostics });
        if (path === undefined) return;
        files.push(path);
        const source = parseYamlSource(path, readFileSync(path, 'utf8'));
        if (source.diagnostics.length > 0) {
          diagnostics.push(...source.diagnostics);
          return;
        }
        const task = taskSpecToTask(path, source.value, source.locate, plugins);
        if (!task.ok) {
          diagnostics.push(...task.diagnostics);
          return;
        }
        const weight = typeof entry['weight'] === 'number' ? entry['weight'] : 1;
        tasks.push({ ...task.value, weight });
        if (task.value.rubric !== undefined) loadRubricInto(task.value.rubric, rubrics, files, diagnostics);
      });
  }
  if (!parsed.success || diagnostics.length > 0) return { ok: false, diagnostics };
  const s = parsed.data;
  const suite: Suite = {
    schema_version: 1,
    id: s.suite_id,
    ...(s.name === undefined ? {} : { name: s.name }),
    ...(s.description === undefined ? {} : { description: s.description }),
    ...(s.domain === undefined ? {} : { domain: s.domain }),
    tasks,
    evaluators: s.evaluators.map((e) => ({ ...e, negate: false })),
    metrics: s.metrics.map((m) => (typeof m === 'string' ? parseMetricAlias(m) : m)),
    thresholds: s.thresholds,
    scoring: s.scoring,
    rubrics: [...rubrics.values()],
    ...(s.judge === undefined ? {} : { judge: s.judge }),
    ...(s.sandbox === undefined ? {} : { sandbox: sandboxRelativeTo(s.sandbox, file) }),
  };
  return { ok: true, value: { suite, files }, count: tasks.length };
}
