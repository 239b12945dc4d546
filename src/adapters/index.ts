/** The adapters: built-ins, the registry, and the helpers a plugin adapter needs. */
export {
  abortedOutput,
  failedOutput,
  MAX_OUTPUT_BYTES,
  normalizeAgentResult,
  thrownErrorKind,
} from './agent-result.ts';
export {
  type AdapterOptions,
  adapterOptionSchemas,
  type BuiltinAdapterName,
  builtinAdapterNames,
  isBuiltinAdapter,
} from './catalog.ts';
export { cliAdapter } from './cli.ts';
export {
  type FunctionAgent,
  type FunctionAgentContext,
  functionAdapter,
  genericAdapter,
} from './function.ts';
export { httpAdapter } from './http.ts';
export {
  type AdapterCheckOptions,
  type AdapterEntry,
  adapterNames,
  builtinAdapters,
  type CreateAgentEnvironment,
  createAgent,
  findAdapter,
  registerAdapter,
  safeParseAdapterOptions,
} from './registry.ts';
export type { AdapterDefinition, AdapterEnvironment, AgentV1, TrialContext } from './types.ts';
