/** Test doubles for users of HarnessEval (in-memory store, scripted adapters). */
export { MemoryStore, type MemoryStoreOptions } from './store/memory-store.ts';
