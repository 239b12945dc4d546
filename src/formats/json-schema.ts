import { z } from 'zod';
import { HarnessConfigSchema } from '../core/harness-config.ts';
import { BenchmarkFileSchema } from './benchmark.ts';
import type { FileKind } from './detect.ts';
import { EvalCaseV0Schema } from './eval-case-v0.ts';
import { RubricFileSchema } from './rubric-file.ts';
import { SuiteFileSchema } from './suite-file.ts';
import { TaskSpecFileSchema } from './task-spec.ts';

const SCHEMAS: Record<FileKind, { schema: z.ZodType; title: string }> = {
  'eval-case-v0': { schema: EvalCaseV0Schema, title: 'HarnessEval eval case (v0, one JSONL record)' },
  benchmark: { schema: BenchmarkFileSchema, title: 'HarnessEval benchmark file (version 1.0)' },
  suite: { schema: SuiteFileSchema, title: 'HarnessEval eval suite' },
  'task-spec': { schema: TaskSpecFileSchema, title: 'HarnessEval task spec' },
  rubric: { schema: RubricFileSchema, title: 'HarnessEval rubric' },
  harness: { schema: HarnessConfigSchema, title: 'HarnessEval harness config' },
};

/**
 * The JSON Schema of one file kind, for editors (`# yaml-language-server: $schema=...`).
 * Rules a JSON Schema cannot say (a regex must compile, refs must exist) are checked by `validate`.
 */
export function jsonSchemaFor(kind: FileKind): Record<string, unknown> {
  const { schema, title } = SCHEMAS[kind];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  return { ...json, $id: `https://harnesseval.dev/schemas/${kind}.schema.json`, title };
}
