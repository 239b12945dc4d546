import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import { exportExperiment, importExperiment } from '../../../src/store/json-io.ts';
import type { ExperimentStore } from '../../../src/store/types.ts';
import { makeExperiment, makeMetric, makeRecord, makeRecords } from '../../helpers/experiments.ts';
import { describeAnnotationContract } from './contract-annotations.ts';
import { describePagedReads } from './contract-paging.ts';

export interface StoreFactoryOptions {
  readonly env?: NodeJS.ProcessEnv;
}

/** Makes a fresh, empty store; each call gives an independent one. */
export type StoreFactory = (options?: StoreFactoryOptions) => Promise<ExperimentStore>;

/** The HarnessEvalError a promise rejects with (fails the test if it resolves or throws anything else). */
export async function rejection(promise: Promise<unknown>): Promise<HarnessEvalError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!HarnessEvalError.is(error)) throw new Error(`expected a HarnessEvalError, got ${String(error)}`);
  return error;
}

/**
 * The behaviour every ExperimentStore backend must have. Run it once per backend:
 * `describeStoreContract('sqlite', factory)`.
 */
export function describeStoreContract(name: string, factory: StoreFactory): void {
  describe(`ExperimentStore contract: ${name}`, () => {
    const opened: ExperimentStore[] = [];
    const open = async (options?: StoreFactoryOptions) => {
      const store = await factory(options);
      opened.push(store);
      return store;
    };
    let tmp: string | undefined;
    const tempFile = async (file: string) => {
      tmp ??= await mkdtemp(join(tmpdir(), 'harnesseval-contract-'));
      return join(tmp, file);
    };
    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close();
    });
    afterAll(async () => {
      if (tmp !== undefined) await rm(tmp, { recursive: true, force: true });
    });

    describe('create and get', () => {
      it('gives back the stored experiment with its records', async () => {
        const store = await open();
        const base = makeExperiment({ name: 'first', metrics: [makeMetric('success_rate', 0.5)] });
        const experiment = { ...base, records: makeRecords(base, { epochs: 2 }) };
        await store.createExperiment(experiment);
        expect(await store.getExperiment(experiment.id)).toEqual(experiment);
      });

      it('returns undefined for an unknown id', async () => {
        const store = await open();
        expect(await store.getExperiment('nope')).toBeUndefined();
      });

      it('refuses a second experiment with the same id and keeps the first', async () => {
        const store = await open();
        await store.createExperiment(makeExperiment({ name: 'one' }));
        const error = await rejection(store.createExperiment(makeExperiment({ name: 'two' })));
        expect(error.code).toBe('store');
        expect(error.message).toContain('exp-0001');
        expect((await store.getExperiment('exp-0001'))?.name).toBe('one');
      });

      it('refuses an experiment that does not match the schema and stores nothing', async () => {
        const store = await open();
        const bad = makeExperiment({ records: [makeRecord()] });
        const record = bad.records[0];
        if (record === undefined) throw new Error('no record');
        record.duration_seconds = -1;
        const error = await rejection(store.createExperiment(bad));
        expect(error.code).toBe('invalid_input');
        expect(error.message).toContain('records[0].duration_seconds');
        expect(await store.getExperiment(bad.id)).toBeUndefined();
      });

      it('refuses an experiment holding two records with one run_id', async () => {
        const store = await open();
        const error = await rejection(
          store.createExperiment(
            makeExperiment({ records: [makeRecord(), makeRecord({ outcome: 'fail' })] }),
          ),
        );
        expect(error.code).toBe('invalid_input');
        expect(error.message).toContain('alpha#0');
        expect(await store.listExperiments()).toEqual([]);
      });

      it('hands out copies: changing a returned experiment changes nothing stored', async () => {
        const store = await open();
        await store.createExperiment(makeExperiment({ records: [makeRecord()] }));
        const first = await store.getExperiment('exp-0001');
        if (first?.records[0] === undefined) throw new Error('missing');
        first.records[0].outcome = 'fail';
        first.status = 'failed';
        const again = await store.getExperiment('exp-0001');
        expect(again?.records[0]?.outcome).toBe('pass');
        expect(again?.status).toBe('completed');
      });
    });

    describePagedReads(() => open());

    describe('appendRecord', () => {
      it('adds records and orders them by suite task order, then epoch, unknown tasks last', async () => {
        const store = await open();
        await store.createExperiment(makeExperiment({ status: 'running' }));
        const order = [
          ['zulu', 0],
          ['charlie', 1],
          ['alpha', 0],
          ['charlie', 0],
          ['bravo', 0],
          ['alpha', 1],
          ['yankee', 0],
        ] as const;
        for (const [task, epoch] of order) {
          await store.appendRecord('exp-0001', makeRecord({ task_id: task, epoch }));
        }
        const got = await store.getExperiment('exp-0001');
        expect(got?.records.map((r) => r.run_id)).toEqual([
          'alpha#0',
          'alpha#1',
          'bravo#0',
          'charlie#0',
          'charlie#1',
          'yankee#0',
          'zulu#0',
        ]);
      });

      it('replaces the record with the same run_id', async () => {
        const store = await open();
        await store.createExperiment(makeExperiment());
        await store.appendRecord('exp-0001', makeRecord({ outcome: 'error', error: 'timed out' }));
        await store.appendRecord('exp-0001', makeRecord({ outcome: 'pass' }));
        const got = await store.getExperiment('exp-0001');
        expect(got?.records).toHaveLength(1);
        expect(got?.records[0]?.outcome).toBe('pass');
        expect(got?.records[0]?.error).toBeUndefined();
        expect((await store.listExperiments())[0]?.records).toBe(1);
      });

      it('fails with not_found for an unknown experiment', async () => {
        const store = await open();
        const error = await rejection(store.appendRecord('ghost', makeRecord()));
        expect(error.code).toBe('not_found');
        expect(error.message).toContain('ghost');
      });

      it('refuses a record that names another experiment or breaks the schema', async () => {
        const store = await open();
        await store.createExperiment(makeExperiment());
        const foreign = await rejection(
          store.appendRecord('exp-0001', makeRecord({ experiment_id: 'other' })),
        );
        expect(foreign.code).toBe('invalid_input');
        const bad = makeRecord();
        bad.scores = { overall: 2 };
        const invalid = await rejection(store.appendRecord('exp-0001', bad));
        expect(invalid.code).toBe('invalid_input');
        expect(invalid.message).toContain('scores.overall');
        expect((await store.getExperiment('exp-0001'))?.records).toEqual([]);
      });
    });

    describe('updateExperiment', () => {
      it('replaces the patched fields and keeps everything else, records included', async () => {
        const store = await open();
        const created = makeExperiment({
          status: 'running',
          finished_at: undefined,
          records: [makeRecord()],
        });
        await store.createExperiment(created);
        const metrics = [makeMetric('success_rate', 1)];
        await store.updateExperiment('exp-0001', {
          status: 'completed',
          finished_at: '2026-01-01T00:02:00.000Z',
          metrics,
          scores: { overall: 0.9 },
          outcome: 'pass',
          violations: [],
          metadata: { note: 'done' },
        });
        const got = await store.getExperiment('exp-0001');
        expect(got).toEqual({
          ...created,
          status: 'completed',
          finished_at: '2026-01-01T00:02:00.000Z',
          metrics,
          scores: { overall: 0.9 },
          outcome: 'pass',
          metadata: { note: 'done' },
        });
        const [summary] = await store.listExperiments();
        expect(summary).toMatchObject({
          status: 'completed',
          outcome: 'pass',
          finished_at: '2026-01-01T00:02:00.000Z',
        });
      });

      it('leaves the fields a patch does not name as they were', async () => {
        const store = await open();
        const metrics = [makeMetric('success_rate', 0.5)];
        const created = makeExperiment({ metrics, scores: { overall: 0.4 }, metadata: { keep: true } });
        await store.createExperiment(created);
        await store.updateExperiment('exp-0001', { status: 'interrupted' });
        expect(await store.getExperiment('exp-0001')).toEqual({ ...created, status: 'interrupted' });
      });

      it('fails with not_found for an unknown experiment', async () => {
        const store = await open();
        expect((await rejection(store.updateExperiment('ghost', { status: 'failed' }))).code).toBe(
          'not_found',
        );
      });

      it('refuses a patch that breaks the schema and leaves the experiment as it was', async () => {
        const store = await open();
        await store.createExperiment(makeExperiment());
        const metric = { ...makeMetric('accuracy', 0.5), n: -3 };
        const error = await rejection(
          store.updateExperiment('exp-0001', { status: 'failed', metrics: [metric] }),
        );
        expect(error.code).toBe('invalid_input');
        expect(error.message).toContain('metrics[0].n');
        expect((await store.getExperiment('exp-0001'))?.status).toBe('completed');
      });
    });

    describe('listExperiments', () => {
      const seed = async (store: ExperimentStore) => {
        await store.createExperiment(
          makeExperiment({ id: 'a-old', created_at: '2026-01-01T00:00:00.000Z', records: [makeRecord()] }),
        );
        await store.createExperiment(
          makeExperiment({
            id: 'b-mid',
            name: 'middle',
            created_at: '2026-01-02T00:00:00.000Z',
            harness: {
              name: 'other',
              version: '2.0.0',
              adapter: 'http',
              options: {},
              agents: [],
              metadata: {},
              schema_version: 1,
            },
            outcome: 'fail',
          }),
        );
        await store.createExperiment(
          makeExperiment({
            id: 'a-new',
            created_at: '2026-01-03T00:00:00.000Z',
            suite: { id: 'other-suite', tasks: [] },
            status: 'interrupted',
          }),
        );
      };

      it('lists newest first with a summary of each', async () => {
        const store = await open();
        expect(await store.listExperiments()).toEqual([]);
        await seed(store);
        const list = await store.listExperiments();
        expect(list.map((s) => s.id)).toEqual(['a-new', 'b-mid', 'a-old']);
        expect(list[1]).toEqual({
          id: 'b-mid',
          name: 'middle',
          suite_id: 'hello-suite',
          harness_name: 'other',
          harness_version: '2.0.0',
          status: 'completed',
          created_at: '2026-01-02T00:00:00.000Z',
          finished_at: '2026-01-01T00:01:00.000Z',
          records: 0,
          outcome: 'fail',
        });
        expect(list[2]?.records).toBe(1);
        expect(list[2]?.name).toBeUndefined();
      });

      it('orders experiments created at the same instant by insertion, latest first', async () => {
        const store = await open();
        for (const id of ['x1', 'x2', 'x3']) await store.createExperiment(makeExperiment({ id }));
        expect((await store.listExperiments()).map((s) => s.id)).toEqual(['x3', 'x2', 'x1']);
      });

      it('filters by harness, suite, status and id prefix, and limits', async () => {
        const store = await open();
        await seed(store);
        const ids = async (filter: Parameters<ExperimentStore['listExperiments']>[0]) =>
          (await store.listExperiments(filter)).map((s) => s.id);
        expect(await ids({ harness: 'other' })).toEqual(['b-mid']);
        expect(await ids({ harness: 'echo-harness' })).toEqual(['a-new', 'a-old']);
        expect(await ids({ suite: 'other-suite' })).toEqual(['a-new']);
        expect(await ids({ status: 'interrupted' })).toEqual(['a-new']);
        expect(await ids({ idPrefix: 'a-' })).toEqual(['a-new', 'a-old']);
        expect(await ids({ idPrefix: 'a-%' })).toEqual([]);
        expect(await ids({ harness: 'echo-harness', suite: 'hello-suite' })).toEqual(['a-old']);
        expect(await ids({ limit: 2 })).toEqual(['a-new', 'b-mid']);
        expect(await ids({ limit: 0 })).toEqual([]);
        expect(await ids({ harness: 'nobody' })).toEqual([]);
      });
    });

    describe('deleteExperiment', () => {
      it('removes the experiment and its records, and says whether it existed', async () => {
        const store = await open();
        await store.createExperiment(makeExperiment({ records: [makeRecord()] }));
        expect(await store.deleteExperiment('exp-0001')).toBe(true);
        expect(await store.getExperiment('exp-0001')).toBeUndefined();
        expect(await store.listExperiments()).toEqual([]);
        expect(await store.deleteExperiment('exp-0001')).toBe(false);
        await store.createExperiment(makeExperiment());
        expect((await store.getExperiment('exp-0001'))?.records).toEqual([]);
      });
    });

    describe('export and import', () => {
      it('round-trips: importing an export gives back the same experiment', async () => {
        const source = await open();
        const base = makeExperiment({
          metrics: [makeMetric('success_rate', 0.75)],
          scores: { overall: 0.8 },
          metadata: { unicode: 'héllo ✓ "quoted" \\ back' },
        });
        const experiment = { ...base, records: makeRecords(base, { epochs: 2, outcome: 'fail' }) };
        await source.createExperiment(experiment);
        const file = await tempFile(`${name}-roundtrip/out.json`);
        await exportExperiment(source, 'exp-0001', file);
        const text = await readFile(file, 'utf8');
        expect(JSON.parse(text)).toMatchObject({ schema_version: 1, id: 'exp-0001' });
        expect(text).toContain('\n  "id"');
        const target = await open();
        const imported = await importExperiment(target, file);
        expect(imported).toEqual(experiment);
        expect(await target.getExperiment('exp-0001')).toEqual(await source.getExperiment('exp-0001'));
      });

      it('refuses to import over an existing id unless replace is asked', async () => {
        const store = await open();
        await store.createExperiment(makeExperiment({ name: 'old' }));
        const file = await tempFile(`${name}-replace.json`);
        await writeFile(file, JSON.stringify(makeExperiment({ name: 'new', records: [makeRecord()] })));
        const error = await rejection(importExperiment(store, file));
        expect(error.code).toBe('invalid_input');
        expect(error.data['reason']).toBe('exists');
        expect((await store.getExperiment('exp-0001'))?.name).toBe('old');
        await importExperiment(store, file, { replace: true });
        const got = await store.getExperiment('exp-0001');
        expect(got?.name).toBe('new');
        expect(got?.records).toHaveLength(1);
      });

      it('fails with not_found when exporting an unknown id', async () => {
        const store = await open();
        const error = await rejection(exportExperiment(store, 'ghost', await tempFile('ghost.json')));
        expect(error.code).toBe('not_found');
      });
    });

    describe('secrets', () => {
      it('never stores the value of a secret-looking environment variable', async () => {
        const secret = 'sk-live-0123456789abcdef';
        const store = await open({ env: { SERVICE_API_KEY: secret } });
        await store.createExperiment(makeExperiment({ metadata: { header: `Bearer ${secret}` } }));
        await store.appendRecord(
          'exp-0001',
          makeRecord({ output: { output: `the key is ${secret}`, latency: 0 } }),
        );
        const got = await store.getExperiment('exp-0001');
        const text = JSON.stringify(got);
        expect(text).not.toContain(secret);
        expect(got?.metadata['header']).toBe('Bearer [REDACTED:SERVICE_API_KEY]');
        expect(got?.records[0]?.output.output).toBe('the key is [REDACTED:SERVICE_API_KEY]');
      });

      it('scrubs the failure texts that trial records keep', async () => {
        const secret = 'sk-live-0123456789abcdef';
        const store = await open({ env: { SERVICE_API_KEY: secret } });
        await store.createExperiment(makeExperiment());
        await store.appendRecord(
          'exp-0001',
          makeRecord({
            outcome: 'error',
            error: `401 for key ${secret}`,
            evaluations: [{ evaluator: 'judge', score: 0, passed: false, explanation: `sent ${secret}` }],
          }),
        );
        const [trial] = await store.listTrialRecords('exp-0001');
        expect(JSON.stringify(trial)).not.toContain(secret);
        expect(trial?.error).toBe('401 for key [REDACTED:SERVICE_API_KEY]');
        expect(trial?.evaluations[0]?.explanation).toBe('sent [REDACTED:SERVICE_API_KEY]');
      });
    });

    describeAnnotationContract(open);

    describe('close', () => {
      it('rejects calls after close with a store error', async () => {
        const store = await factory();
        await store.close();
        expect((await rejection(store.listExperiments())).code).toBe('store');
        expect((await rejection(store.getExperiment('x'))).code).toBe('store');
        await store.close();
      });
    });
  });
}
