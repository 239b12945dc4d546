import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadExperiment, readExperimentFile } from '../../../src/cli/experiment-source.ts';
import { formatDiagnostic } from '../../../src/core/diagnostic.ts';
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

describe('readExperimentFile', () => {
  it('reads an exported experiment', async () => {
    const e = mixedExperiment();
    const { path } = await file('e.json', renderJson(e));
    expect(await readExperimentFile(path)).toEqual(e);
  });

  it('locates a JSON syntax error', async () => {
    const { path } = await file('bad.json', '{\n  "id": "x",\n  oops\n}');
    const error = await failure(readExperimentFile(path, 'bad.json'));
    expect(error.code).toBe('invalid_input');
    expect(error.diagnostics[0]).toMatchObject({ file: 'bad.json', line: 3, col: 3 });
  });

  it('locates schema errors at the offending field', async () => {
    const json = renderJson(mixedExperiment()).replace('"outcome": "fail"', '"outcome": "maybe"');
    const { path } = await file('e.json', json);
    const error = await failure(readExperimentFile(path, 'e.json'));
    expect(error.code).toBe('invalid_input');
    const diagnostic = error.diagnostics[0];
    expect(diagnostic?.path).toBe('records[1].outcome');
    const line = json.split('\n').findIndex((l) => l.includes('"maybe"')) + 1;
    expect(diagnostic?.line).toBe(line);
    expect(formatDiagnostic(diagnostic!)).toMatch(
      new RegExp(`^e\\.json:${line}:\\d+: records\\[1\\]\\.outcome: `),
    );
  });

  it('points a missing field at its parent object', async () => {
    const { path } = await file('e.json', '{\n  "id": "x"\n}\n');
    const error = await failure(readExperimentFile(path, 'e.json'));
    const suite = error.diagnostics.find((d) => d.path === 'suite');
    expect(suite).toMatchObject({ line: 1, col: 1 });
  });

  it('says when the file cannot be read', async () => {
    const error = await failure(readExperimentFile('/nonexistent/e.json'));
    expect(error.code).toBe('not_found');
  });
});

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
