import { z } from 'zod';

/**
 * The parts of promptfoo's results the importer reads, from promptfoo/promptfoo `src/types/index.ts`
 * (`OutputFile`, `EvaluateSummaryV3`/`V2`, `EvaluateResult`, `GradingResult`, `ResultFailureReason`)
 * and `src/types/shared.ts` (`TokenUsage`). The same result shape is what `eval_results` rows hold
 * (`src/models/evalResult.ts` `toEvaluateResult`). Unknown keys are allowed and reported.
 */

/** The summary versions this importer reads: 3 (`EvaluateSummaryV3`, today's) and 2 (with `table`). */
export const PROMPTFOO_SUMMARY_VERSIONS: readonly number[] = [2, 3];

const count = z.number().nonnegative().optional();
export const PromptfooTokenUsageSchema = z.looseObject({
  total: count,
  prompt: count,
  completion: count,
  cached: count,
  numRequests: count,
});
export type PromptfooTokenUsage = z.infer<typeof PromptfooTokenUsageSchema>;

export const PromptfooAssertionSchema = z.looseObject({
  type: z.string(),
  value: z.unknown().optional(),
  metric: z.string().optional(),
  weight: z.number().optional(),
  threshold: z.number().optional(),
});

/** One assertion's verdict (`GradingResult`); nested assert-set components stay unread. */
export const PromptfooComponentSchema = z.looseObject({
  pass: z.boolean(),
  score: z.number(),
  reason: z.string().default(''),
  namedScores: z.record(z.string(), z.number()).optional(),
  tokensUsed: PromptfooTokenUsageSchema.optional(),
  assertion: PromptfooAssertionSchema.nullable().optional(),
  componentResults: z.array(z.unknown()).optional(),
});
export type PromptfooComponent = z.infer<typeof PromptfooComponentSchema>;

export const PromptfooGradingResultSchema = PromptfooComponentSchema.extend({
  componentResults: z.array(PromptfooComponentSchema).optional(),
});
export type PromptfooGradingResult = z.infer<typeof PromptfooGradingResultSchema>;

export const PromptfooResponseSchema = z.looseObject({
  output: z.unknown().optional(),
  error: z.string().nullable().optional(),
  cached: z.boolean().optional(),
  cost: z.number().nonnegative().optional(),
  tokenUsage: PromptfooTokenUsageSchema.optional(),
  latencyMs: z.number().nonnegative().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  logProbs: z.array(z.number()).optional(),
});

export const PromptfooTestCaseSchema = z.looseObject({
  description: z.string().optional(),
  vars: z.record(z.string(), z.unknown()).optional(),
  assert: z.array(z.unknown()).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  threshold: z.number().optional(),
});
export type PromptfooTestCase = z.infer<typeof PromptfooTestCaseSchema>;

export const PromptfooPromptSchema = z.looseObject({
  raw: z.string().optional(),
  label: z.string().optional(),
  id: z.string().optional(),
});

/** The provider as promptfoo keeps it: `id` and `label` (its `config` is never read). */
export const PromptfooProviderSchema = z.looseObject({
  id: z.string(),
  label: z.string().nullable().optional(),
});

export const PromptfooNamedScoresSchema = z.record(z.string(), z.number()).nullable();
export const PromptfooMetadataSchema = z.record(z.string(), z.unknown()).nullable();

export const PromptfooResultSchema = z.looseObject({
  id: z.string().optional(),
  description: z.string().optional(),
  promptIdx: z.number().int().nonnegative(),
  testIdx: z.number().int().nonnegative(),
  testCase: PromptfooTestCaseSchema,
  promptId: z.string().optional(),
  provider: PromptfooProviderSchema,
  prompt: PromptfooPromptSchema,
  vars: z.record(z.string(), z.unknown()).optional(),
  response: PromptfooResponseSchema.nullable().optional(),
  error: z.string().nullable().optional(),
  // ResultFailureReason: NONE 0, ASSERT 1, ERROR 2.
  failureReason: z.union([z.literal(0), z.literal(1), z.literal(2)]).default(0),
  success: z.boolean(),
  score: z.number(),
  latencyMs: z.number().nonnegative().nullable().optional(),
  gradingResult: PromptfooGradingResultSchema.nullable().optional(),
  namedScores: PromptfooNamedScoresSchema.optional(),
  cost: z.number().nonnegative().nullable().optional(),
  metadata: PromptfooMetadataSchema.optional(),
  tokenUsage: PromptfooTokenUsageSchema.optional(),
});
export type PromptfooResult = z.infer<typeof PromptfooResultSchema>;
export const PROMPTFOO_RESULT_FIELDS: ReadonlySet<string> = new Set(Object.keys(PromptfooResultSchema.shape));

const version = z.number().refine((v) => PROMPTFOO_SUMMARY_VERSIONS.includes(v), {
  error: (issue) =>
    `unknown promptfoo results version ${String(issue.input)}: this importer reads versions ${PROMPTFOO_SUMMARY_VERSIONS.join(' and ')}`,
});

export const PromptfooSummarySchema = z.looseObject({
  version,
  timestamp: z.string().optional(),
  results: z.array(PromptfooResultSchema),
});

/** Only `description` and `tags` of the eval's config are read: the rest can hold API keys. */
export const PromptfooConfigSchema = z.looseObject({
  description: z.string().optional(),
  tags: z.record(z.string(), z.string()).optional(),
});
export type PromptfooConfig = z.infer<typeof PromptfooConfigSchema>;

/** `promptfoo eval -o results.json` (`OutputFile`, written by `src/util/output.ts` `createOutputData`). */
export const PromptfooOutputFileSchema = z.looseObject({
  evalId: z.string().nullable().optional(),
  results: PromptfooSummarySchema,
  config: PromptfooConfigSchema.default({}),
  shareableUrl: z.string().nullable().optional(),
  metadata: z
    .looseObject({
      promptfooVersion: z.string().optional(),
      evaluationCreatedAt: z.string().optional(),
      author: z.string().optional(),
    })
    .optional(),
});
export type PromptfooOutputFile = z.infer<typeof PromptfooOutputFileSchema>;
