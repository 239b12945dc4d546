import { z } from 'zod';
import type { Diagnostic } from '../core/diagnostic.ts';
import type { Criterion, Task } from '../core/task.ts';
import { VerificationSchema } from '../core/task.ts';
import { splitCommand } from '../util/split-command.ts';
import type { FileResult } from './benchmark.ts';
import { issuesToDiagnostics, type Locate, located } from './issues.ts';
import { checkEvaluatorRef, isRecord, type PluginCheckContext, type PluginNames } from './plugin-check.ts';
import { refTarget, resolveRef } from './refs.ts';

const CriterionFileSchema = z
  .object({
    id: z.string().min(1),
    description: z.string().default(''),
    type: z.string().min(1).default('functional'),
    verification: VerificationSchema,
    /** An argv array, or a string split on whitespace (quotes group words); never run by a shell. */
    command: z.union([z.array(z.string().min(1)).min(1), z.string().min(1)]).optional(),
    timeout_seconds: z.number().positive().optional(),
    evaluator: z
      .object({
        name: z.string().min(1),
        options: z.record(z.string(), z.unknown()).default({}),
        /** Inverts the verdict: `contains` of banned phrases, negated, passes when none appears. */
        negate: z.boolean().default(false),
      })
      .strict()
      .optional(),
    rubric_dimensions: z.array(z.string()).optional(),
    weight: z.number().nonnegative().default(1),
  })
  .strict();

/** Seed-004 task spec YAML. */
export const TaskSpecFileSchema = z
  .object({
    id: z.string().min(1),
    domain: z.string().min(1),
    description: z.string().min(1),
    complexity: z.string().optional(),
    /** `codebase: "ref:repo/starter"` (a directory); any other `ref:` is a file; plain strings stay inputs. */
    inputs: z.record(z.string(), z.string()).default({}),
    acceptance_criteria: z.array(CriterionFileSchema).min(1),
    tags: z.array(z.string()).default([]),
    estimated_complexity_hours: z.number().nonnegative().optional(),
    difficulty: z.enum(['easy', 'medium', 'hard']).optional(),
    /** `ref:rubric.yaml`: the rubric that `verification: rubric` criteria are graded on. */
    rubric: z.string().optional(),
    timeout_seconds: z.number().positive().optional(),
    /** Globs (relative to the codebase) of files the harness may not change, e.g. `test/acceptance/*`. */
    protected_files: z.array(z.string().min(1)).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type TaskSpecFile = z.infer<typeof TaskSpecFileSchema>;

/** Validates a parsed task spec, resolves its refs and converts it to a Task. */
export function taskSpecToTask(
  file: string,
  raw: unknown,
  locate: Locate,
  plugins?: PluginNames,
): FileResult<Task> {
  const diagnostics: Diagnostic[] = [];
  const parsed = TaskSpecFileSchema.safeParse(raw, { reportInput: true });
  if (!parsed.success) diagnostics.push(...issuesToDiagnostics(parsed.error.issues, file, locate));
  const ctx: PluginCheckContext = { file, locate, diagnostics, plugins };
  checkCriteriaRaw(ctx, raw);
  const files: Record<string, string> = {};
  const inlineInputs: Record<string, string> = {};
  let rubric: string | undefined;
  if (isRecord(raw)) {
    const inputs = raw['inputs'];
    if (isRecord(inputs))
      for (const [key, value] of Object.entries(inputs)) {
        if (typeof value !== 'string') continue;
        const target = refTarget(value);
        if (target === undefined) {
          inlineInputs[key] = value;
          continue;
        }
        const want = key === 'codebase' ? 'directory' : 'file';
        const where = { locate, path: ['inputs', key], diagnostics };
        const resolved = resolveRef(file, target, want, where);
        if (resolved !== undefined) files[key] = resolved;
      }
    if (typeof raw['rubric'] === 'string') {
      const target = refTarget(raw['rubric']) ?? raw['rubric'];
      rubric = resolveRef(file, target, 'file', { locate, path: ['rubric'], diagnostics });
    }
  }
  if (!parsed.success || diagnostics.length > 0) return { ok: false, diagnostics };
  const spec = parsed.data;
  const task: Task = {
    id: spec.id,
    description: spec.description,
    domain: spec.domain,
    ...(spec.complexity === undefined ? {} : { complexity: spec.complexity }),
    input: spec.description,
    criteria: spec.acceptance_criteria.map(toCriterion),
    evaluators: [],
    tags: spec.tags,
    ...(spec.difficulty === undefined ? {} : { difficulty: spec.difficulty }),
    weight: 1,
    ...(spec.timeout_seconds === undefined ? {} : { timeout_seconds: spec.timeout_seconds }),
    files,
    ...(spec.protected_files === undefined ? {} : { protected_files: spec.protected_files }),
    ...(spec.estimated_complexity_hours === undefined
      ? {}
      : { estimated_complexity_hours: spec.estimated_complexity_hours }),
    ...(rubric === undefined ? {} : { rubric }),
    metadata: {
      ...(spec.metadata ?? {}),
      ...(Object.keys(inlineInputs).length > 0 ? { inputs: inlineInputs } : {}),
    },
    source: { file, line: 1 },
  };
  return { ok: true, value: task, count: 1 };
}

/** Evaluator names/options, command strings and unique criterion ids, on the raw document. */
function checkCriteriaRaw(ctx: PluginCheckContext, raw: unknown): void {
  if (!isRecord(raw) || !Array.isArray(raw['acceptance_criteria'])) return;
  const seen = new Set<string>();
  raw['acceptance_criteria'].forEach((c: unknown, i: number) => {
    if (!isRecord(c)) return;
    checkEvaluatorRef(ctx, c['evaluator'], ['acceptance_criteria', i, 'evaluator']);
    const command = c['command'];
    if (typeof command === 'string') {
      const at = ['acceptance_criteria', i, 'command'];
      try {
        if (splitCommand(command).length === 0)
          ctx.diagnostics.push(
            located(ctx.file, ctx.locate(at), at, 'command is empty', 'a command and its arguments'),
          );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        ctx.diagnostics.push(located(ctx.file, ctx.locate(at), at, message, 'balanced quotes'));
      }
    }
    if (typeof c['id'] === 'string') {
      if (seen.has(c['id'])) {
        const at = ['acceptance_criteria', i, 'id'];
        ctx.diagnostics.push(
          located(ctx.file, ctx.locate(at), at, `duplicate criterion id "${c['id']}"`, 'unique ids'),
        );
      }
      seen.add(c['id']);
    }
  });
}

function toCriterion(c: z.infer<typeof CriterionFileSchema>): Criterion {
  const command = typeof c.command === 'string' ? splitCommand(c.command) : c.command;
  return {
    id: c.id,
    description: c.description,
    type: c.type,
    verification: c.verification,
    ...(c.evaluator === undefined ? {} : { evaluator: c.evaluator }),
    ...(command === undefined ? {} : { command }),
    ...(c.timeout_seconds === undefined ? {} : { timeout_seconds: c.timeout_seconds }),
    ...(c.rubric_dimensions === undefined ? {} : { rubric_dimensions: c.rubric_dimensions }),
    weight: c.weight,
  };
}
