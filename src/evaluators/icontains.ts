import { evaluatorOptionSchemas } from './catalog.ts';
import { containsEvaluator } from './contains.ts';
import type { EvaluatorDefinition } from './types.ts';

const options = evaluatorOptionSchemas.icontains;

/** `contains` ignoring case. */
export const icontains: EvaluatorDefinition<typeof options> = {
  name: 'icontains',
  description: 'output contains a substring, ignoring case',
  options,
  create: (opts) => containsEvaluator('icontains', { ...opts, ignore_case: true }),
};
