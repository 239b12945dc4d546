import { z } from 'zod';

export const RubricLevelSchema = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);
export type RubricLevel = z.infer<typeof RubricLevelSchema>;

/** A graded example used to calibrate a judge (few-shot). */
export const CalibrationExampleSchema = z.object({
  output: z.string(),
  level: RubricLevelSchema,
  rationale: z.string().default(''),
});
export type CalibrationExample = z.infer<typeof CalibrationExampleSchema>;

export const RubricDimensionSchema = z.object({
  name: z.string().min(1),
  weight: z.number().nonnegative(),
  levels: z.object({ 1: z.string(), 2: z.string(), 3: z.string(), 4: z.string() }),
  examples: z.array(CalibrationExampleSchema).default([]),
});
export type RubricDimension = z.infer<typeof RubricDimensionSchema>;

/** A rubric: named dimensions, each graded on levels 1..4 (how a level scores: `scoring/rubric-score.ts`). */
export const RubricSchema = z.object({
  id: z.string().min(1),
  dimensions: z.array(RubricDimensionSchema).min(1),
  source: z.string().optional(),
});
export type Rubric = z.infer<typeof RubricSchema>;
