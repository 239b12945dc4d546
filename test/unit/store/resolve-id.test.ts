import { describe, expect, it } from 'vitest';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import { MemoryStore } from '../../../src/store/memory-store.ts';
import { resolveExperimentId } from '../../../src/store/resolve-id.ts';
import { makeExperiment } from '../../helpers/experiments.ts';

async function storeWith(...ids: string[]): Promise<MemoryStore> {
  const store = new MemoryStore({ env: {} });
  for (const id of ids) await store.createExperiment(makeExperiment({ id }));
  return store;
}

async function failure(promise: Promise<unknown>): Promise<HarnessEvalError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!HarnessEvalError.is(error)) throw new Error('expected a HarnessEvalError');
  return error;
}

describe('resolveExperimentId', () => {
  it('accepts an exact id even when it is also a prefix of another', async () => {
    const store = await storeWith('run-1', 'run-10');
    expect(await resolveExperimentId(store, 'run-1')).toBe('run-1');
  });

  it('accepts a unique prefix', async () => {
    const store = await storeWith('01JAAAA', '01JBBBB');
    expect(await resolveExperimentId(store, '01JB')).toBe('01JBBBB');
  });

  it('fails with not_found when nothing matches and invalid_input when several do', async () => {
    const store = await storeWith('01JAAAA', '01JAAAB');
    expect((await failure(resolveExperimentId(store, 'zzz'))).code).toBe('not_found');
    const ambiguous = await failure(resolveExperimentId(store, '01JAAA'));
    expect(ambiguous.code).toBe('invalid_input');
    expect(ambiguous.message).toContain('01JAAAA');
    expect(ambiguous.message).toContain('01JAAAB');
    expect((await failure(resolveExperimentId(store, ''))).code).toBe('invalid_input');
  });
});
