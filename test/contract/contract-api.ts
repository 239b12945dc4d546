import { describe, expect, it } from 'vitest';
import type { AdapterContractOptions, ContractTestApi } from '../../src/testing.ts';

/** vitest's functions, as the contract takes them. */
export const vitestApi: ContractTestApi = { describe, it, expect };

/** A case declared not applicable says so in the test output, not only as a skipped test's name. */
export const contractOptions: AdapterContractOptions = { note: (message) => console.log(message) };
