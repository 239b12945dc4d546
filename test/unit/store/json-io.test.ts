import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/core/diagnostic.ts';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import {
  experimentToJson,
  importExperiment,
  parseExperimentJson,
  readExperimentFile,
} from '../../../src/store/json-io.ts';
import { MemoryStore } from '../../../src/store/memory-store.ts';
import { makeExperiment, makeRecord } from '../../helpers/experiments.ts';
import { mixedExperiment } from '../reporters/experiment-factory.ts';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'harnesseval-json-io-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function thrown(fn: () => unknown): HarnessEvalError {
  try {
    fn();
  } catch (error) {
    if (HarnessEvalError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a HarnessEvalError');
}

describe('parseExperimentJson', () => {
  it('reads what experimentToJson wrote', () => {
    const experiment = makeExperiment({ records: [makeRecord()] });
    expect(parseExperimentJson(experimentToJson(experiment, { env: {} }), 'x.json')).toEqual(experiment);
  });

  it('locates a schema error at the line and column of the bad value', () => {
    const experiment = makeExperiment({ records: [makeRecord()] });
    const text = experimentToJson(experiment, { env: {} }).replace('"outcome": "pass"', '"outcome": "maybe"');
    const error = thrown(() => parseExperimentJson(text, 'exp.json'));
    expect(error.code).toBe('invalid_input');
    const [diagnostic] = error.diagnostics;
    const line = text.split('\n').findIndex((l) => l.includes('"maybe"')) + 1;
    expect(diagnostic).toMatchObject({ file: 'exp.json', line, path: 'records[0].outcome' });
    expect(
      formatDiagnostic(diagnostic ?? { file: '', line: 0, col: 0, path: '', message: '', severity: 'error' }),
    ).toMatch(new RegExp(`^exp\\.json:${line}:\\d+: records\\[0\\]\\.outcome: `));
  });

  it('locates a missing field at its parent object', () => {
    const { status: _status, ...withoutStatus } = makeExperiment();
    const text = JSON.stringify(withoutStatus, null, 2);
    const error = thrown(() => parseExperimentJson(text, 'exp.json'));
    expect(error.diagnostics.map((d) => [d.path, d.line, d.col])).toEqual([['status', 1, 1]]);
  });

  it('locates a JSON syntax error', () => {
    const error = thrown(() => parseExperimentJson('{\n  "id": "x",\n}', 'broken.json'));
    expect(error.code).toBe('invalid_input');
    expect(error.diagnostics[0]).toMatchObject({ file: 'broken.json', line: 3, col: 1 });
  });
});

describe('readExperimentFile', () => {
  async function write(name: string, text: string): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  }

  async function failure(promise: Promise<unknown>): Promise<HarnessEvalError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (HarnessEvalError.is(error)) return error;
    throw new Error(`expected a HarnessEvalError, got ${String(error)}`);
  }

  it('reads an exported experiment', async () => {
    const experiment = mixedExperiment();
    const path = await write('read.json', experimentToJson(experiment, { env: {} }));
    expect(await readExperimentFile(path)).toEqual(experiment);
  });

  it('names the file as shown, and says the file is no experiment export', async () => {
    const json = experimentToJson(mixedExperiment(), { env: {} }).replace(
      '"outcome": "fail"',
      '"outcome": "maybe"',
    );
    const error = await failure(readExperimentFile(await write('second.json', json), 'e.json'));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toBe('e.json is not a HarnessEval experiment export');
    const line = json.split('\n').findIndex((l) => l.includes('"maybe"')) + 1;
    const col = (json.split('\n')[line - 1]?.indexOf('"maybe"') ?? -1) + 1;
    expect(error.diagnostics.map(formatDiagnostic)[0]).toMatch(
      new RegExp(`^e\\.json:${line}:${col}: records\\[1\\]\\.outcome: `),
    );
  });

  it('locates a JSON syntax error without repeating the position in the message', async () => {
    const path = await write('syntax.json', '{\n  "id": "x",\n  oops\n}');
    const error = await failure(readExperimentFile(path, 'bad.json'));
    expect(error).toMatchObject({ code: 'invalid_input', message: 'bad.json is not valid JSON' });
    expect(error.diagnostics).toEqual([
      {
        file: 'bad.json',
        line: 3,
        col: 3,
        path: '',
        message: 'Expected double-quoted property name',
        severity: 'error',
      },
    ]);
  });

  it('places a file that stops early at its end, and an empty file at 1:1', async () => {
    const cut = await failure(
      readExperimentFile(await write('cut.json', '{\n  "id": "x",\n  "name": '), 'cut.json'),
    );
    expect(cut.diagnostics[0]).toMatchObject({ line: 3, col: 11, message: 'Unexpected end of JSON input' });
    const empty = await failure(readExperimentFile(await write('empty.json', ''), 'empty.json'));
    expect(empty.diagnostics[0]).toMatchObject({ line: 1, col: 1 });
  });

  it('says the whole file when V8 gives no position', async () => {
    const error = await failure(readExperimentFile(await write('token.json', '{"id": x}'), 'token.json'));
    expect(error.diagnostics[0]).toMatchObject({ line: 0, col: 0, message: "Unexpected token 'x'" });
    expect(formatDiagnostic(error.diagnostics[0]!)).toBe("token.json: Unexpected token 'x'");
  });

  it('points a missing nested field at its parent object', async () => {
    const text = JSON.stringify({ ...mixedExperiment(), suite: {} }, null, 2);
    const error = await failure(readExperimentFile(await write('nested.json', text)));
    const line = text.split('\n').findIndex((l) => l.includes('"suite": {}')) + 1;
    const inSuite = error.diagnostics.filter((d) => d.path.startsWith('suite.'));
    expect(inSuite.length).toBeGreaterThan(0);
    for (const d of inSuite) expect(d).toMatchObject({ line, col: '  "suite": '.length + 1 });
  });

  it('fails with not_found for a missing file and invalid_input for a folder', async () => {
    expect((await failure(readExperimentFile(join(dir, 'nope.json')))).code).toBe('not_found');
    await mkdir(join(dir, 'folder.json'), { recursive: true });
    const folder = await failure(readExperimentFile(join(dir, 'folder.json'), 'folder.json'));
    expect(folder).toMatchObject({ code: 'invalid_input' });
    expect(folder.message).toMatch(/^cannot read folder\.json: /);
  });
});

describe('importExperiment', () => {
  it('fails with not_found for a missing file', async () => {
    const error = await importExperiment(new MemoryStore(), join(dir, 'missing.json')).catch(
      (e: unknown) => e,
    );
    expect(HarnessEvalError.is(error) && error.code).toBe('not_found');
  });

  it('stores nothing when the file is not an experiment', async () => {
    const file = join(dir, 'not-an-experiment.json');
    await writeFile(file, JSON.stringify({ id: 'x', records: 'no' }));
    const store = new MemoryStore();
    const error = await importExperiment(store, file).catch((e: unknown) => e);
    expect(HarnessEvalError.is(error) && error.diagnostics.length).toBeGreaterThan(0);
    expect(await store.listExperiments()).toEqual([]);
  });
});
