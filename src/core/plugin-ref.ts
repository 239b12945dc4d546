import { z } from 'zod';

/**
 * A reference to a registered plugin by name with its options, as written in a file:
 * `{ name: regex, options: { pattern: "^Hello" } }`. The options are checked against the
 * plugin's own schema when the file loads.
 */
export const EvaluatorRefSchema = z.object({
  name: z.string().min(1),
  options: z.record(z.string(), z.unknown()).default({}),
  /** Invert the verdict: passes when the evaluator fails, score becomes 1 - score. */
  negate: z.boolean().default(false),
  /** Optional label for reports when the same evaluator is used twice. */
  label: z.string().optional(),
});
export type EvaluatorRef = z.infer<typeof EvaluatorRefSchema>;

export const MetricRefSchema = z.object({
  name: z.string().min(1),
  options: z.record(z.string(), z.unknown()).default({}),
});
export type MetricRef = z.infer<typeof MetricRefSchema>;
