import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { z } from 'zod';
import type { Diagnostic } from '../core/diagnostic.ts';
import type { Rubric } from '../core/rubric.ts';
import type { FileResult } from './benchmark.ts';
import { issuesToDiagnostics, type Locate } from './issues.ts';
import { parseYamlSource } from './yaml-source.ts';

const LevelTextSchema = z.string().min(1);

const DimensionFileSchema = z
  .object({
    weight: z.number().nonnegative(),
    /** Levels 1..4, each a description of what earns it. */
    levels: z
      .object({ 1: LevelTextSchema, 2: LevelTextSchema, 3: LevelTextSchema, 4: LevelTextSchema })
      .strict(),
    /** Graded examples that calibrate a judge (few-shot). */
    examples: z
      .array(
        z
          .object({
            output: z.string(),
            level: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
            rationale: z.string().default(''),
          })
          .strict(),
      )
      .default([]),
    description: z.string().optional(),
  })
  .strict();

/** Seed-004 rubric YAML: `rubric: {dimension: {weight, levels: {1..4: text}}}`. */
export const RubricFileSchema = z
  .object({
    id: z.string().min(1).optional(),
    description: z.string().optional(),
    rubric: z
      .record(z.string(), DimensionFileSchema)
      .refine((dims) => Object.keys(dims).length > 0, { message: 'a rubric needs at least one dimension' }),
  })
  .strict();

/** Validates a parsed rubric file and converts it; the id defaults to the file's base name. */
export function rubricFileToRubric(file: string, raw: unknown, locate: Locate): FileResult<Rubric> {
  const parsed = RubricFileSchema.safeParse(raw, { reportInput: true });
  if (!parsed.success)
    return { ok: false, diagnostics: issuesToDiagnostics(parsed.error.issues, file, locate) };
  const dimensions = Object.entries(parsed.data.rubric).map(([name, d]) => ({
    name,
    weight: d.weight,
    levels: d.levels,
    examples: d.examples,
  }));
  const id = parsed.data.id ?? basename(file, extname(file));
  return { ok: true, value: { id, dimensions, source: file }, count: dimensions.length };
}

/** Loads the rubric file at `path` into `rubrics` (keyed by path) once; its problems go to `diagnostics`. */
export function loadRubricInto(
  path: string,
  rubrics: Map<string, Rubric>,
  files: string[],
  diagnostics: Diagnostic[],
): void {
  if (rubrics.has(path)) return;
  files.push(path);
  const source = parseYamlSource(path, readFileSync(path, 'utf8'));
  if (source.diagnostics.length > 0) {
    diagnostics.push(...source.diagnostics);
    return;
  }
  const rubric = rubricFileToRubric(path, source.value, source.locate);
  if (rubric.ok) rubrics.set(path, rubric.value);
  else diagnostics.push(...rubric.diagnostics);
}
