import { z } from 'zod';
import type { FileKind } from './detect.ts';

// Loaded on demand: the loaders import these modules lazily too, and a static import here
// would tie them into the library's entry chunk (a load-order cycle in the bundle).
const SCHEMAS: Record<FileKind, { schema: () => Promise<z.ZodType>; title: string }> = {
  'eval-case-v0': {
    schema: async () => (await import('./eval-case-v0.ts')).EvalCaseV0Schema,
    title: 'HarnessEval eval case (v0, one JSONL record)',
  },
  benchmark: {
    schema: async () => (await import('./benchmark.ts')).BenchmarkFileSchema,
    title: 'HarnessEval benchmark file (version 1.0)',
  },
  suite: {
    schema: async () => (await import('./suite-file.ts')).SuiteFileSchema,
    title: 'HarnessEval eval suite',
  },
  'task-spec': {
    schema: async () => (await import('./task-spec.ts')).TaskSpecFileSchema,
    title: 'HarnessEval task spec',
  },
  rubric: {
    schema: async () => (await import('./rubric-file.ts')).RubricFileSchema,
    title: 'HarnessEval rubric',
  },
  harness: {
    schema: async () => (await import('../core/harness-config.ts')).HarnessConfigSchema,
    title: 'HarnessEval harness config',
  },
  harbor: {
    schema: async () => (await import('./harbor-schema.ts')).HarborTaskConfigSchema,
    title: 'Harbor task.toml (schema 1.x), as HarnessEval reads it',
  },
  'model-script': {
    schema: async () => (await import('./model-script.ts')).ModelScriptSchema,
    title: 'HarnessEval model script (a scripted model for the gateway)',
  },
};

/**
 * The JSON Schema of one file kind, for editors (`# yaml-language-server: $schema=...`).
 * Rules a JSON Schema cannot say (a regex must compile, refs must exist) are checked by `validate`.
 */
export async function jsonSchemaFor(kind: FileKind): Promise<Record<string, unknown>> {
  const { schema, title } = SCHEMAS[kind];
  const json = z.toJSONSchema(await schema(), {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  });
  return { ...json, $id: `https://harnesseval.dev/schemas/${kind}.schema.json`, title };
}
