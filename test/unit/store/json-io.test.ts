import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/core/diagnostic.ts';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import { experimentToJson, importExperiment, parseExperimentJson } from '../../../src/store/json-io.ts';
import { MemoryStore } from '../../../src/store/memory-store.ts';
import { makeExperiment, makeRecord } from '../../helpers/experiments.ts';

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
    expect(diagnostic).toMatchObject({ file: 'exp.json', line, path: 'records.0.outcome' });
    expect(
      formatDiagnostic(diagnostic ?? { file: '', line: 0, col: 0, path: '', message: '', severity: 'error' }),
    ).toMatch(new RegExp(`^exp\\.json:${line}:\\d+: records\\.0\\.outcome: `));
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
