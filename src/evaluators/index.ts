/** The public surface of the evaluators: the registry and the contracts. */
export { type BuiltinEvaluatorName, builtinEvaluatorNames, evaluatorOptionSchemas } from './catalog.ts';
export {
  type BuiltinEvaluatorEntry,
  builtinEvaluators,
  createEvaluator,
  defaultEvaluatorsFor,
  evaluatorNames,
  evaluatorsForTask,
  registerEvaluator,
  safeCheckEvaluatorRef,
} from './registry.ts';
export { binary, cannotJudge, toResult, type Verdict, withCommonBehaviour } from './result.ts';
export type { EvaluationContext, EvaluatorDefinition, EvaluatorEnvironment, EvaluatorV1 } from './types.ts';
