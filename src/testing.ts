/** Test doubles for users of HarnessEval (in-memory store, scripted adapters). */
export {};
