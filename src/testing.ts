/**
 * `harnesseval/testing`: test doubles for users of HarnessEval — an in-memory store, a scripted
 * agent (in process and over HTTP) that needs no model or API key, and the adapter contract suite
 * to run against your own adapter in your test framework.
 */

export { MemoryStore, type MemoryStoreOptions } from './store/memory-store.ts';
export {
  type AdapterContractFactory,
  type AdapterContractOptions,
  adapterContract,
  type ContractSubject,
  type ContractTestApi,
  type NotApplicable,
  notApplicable,
} from './testing/adapter-contract.ts';
export { processesMatching } from './testing/processes.ts';
export {
  type Script,
  type ScriptedReply,
  type ScriptedTurn,
  scriptedAgent,
  scriptedFunction,
} from './testing/scripted-agent.ts';
export { type ScriptedHttpAgent, startScriptedHttpAgent } from './testing/scripted-http-agent.ts';
