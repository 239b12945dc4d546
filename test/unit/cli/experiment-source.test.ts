import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment } from '../../../src/cli/experiment-source.ts';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import { renderJson } from '../../../src/reporters/json.ts';
import { mixedExperiment } from '../reporters/experiment-factory.ts';

async function file(name: string, text: string): Promise<{ dir: string; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'he-source-'));
  const path = join(dir, name);
  await writeFile(path, text);
  return { dir, path };
}

async function failure(promise: Promise<unknown>): Promise<HarnessEvalError> {
  try {
    await promise;
  } catch (error) {
    if (HarnessEvalError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a HarnessEvalError');
}

describe('loadExperiment', () => {
  it('loads a FILE.json relative to the working directory', async () => {
    const { dir } = await file('e.json', renderJson(mixedExperiment()));
    expect((await loadExperiment('e.json', { cwd: dir })).id).toBe('exp-1');
  });

  it('says a missing .json file is not found', async () => {
    const error = await failure(loadExperiment('missing.json', { cwd: tmpdir() }));
    expect(error).toMatchObject({ code: 'not_found', message: 'file not found: missing.json' });
  });

  it('looks an id up in the store (not available in this build)', async () => {
    const error = await failure(loadExperiment('01J9Z8ABC', { cwd: tmpdir(), store: 'x.db' }));
    expect(error.code).toBe('not_found');
    expect(error.message).toContain('x.db');
  });
});
