import { describe, expect, it } from 'vitest';
import type { ExperimentStore } from '../../../src/store/types.ts';
import { makeExperiment, makeRecord } from '../../helpers/experiments.ts';
import { rejection, type StoreFactoryOptions } from './contract.ts';

/**
 * Annotations every ExperimentStore backend must keep: a label and a note on a trial, oldest
 * first, checked, scrubbed of secrets, gone with their experiment. Called from
 * `describeStoreContract`, so each backend runs it.
 */
export function describeAnnotationContract(
  open: (options?: StoreFactoryOptions) => Promise<ExperimentStore>,
): void {
  describe('annotations', () => {
    const withTrials = async (options?: StoreFactoryOptions) => {
      const store = await open(options);
      await store.createExperiment(
        makeExperiment({ records: [makeRecord(), makeRecord({ task_id: 'bravo', outcome: 'fail' })] }),
      );
      return store;
    };

    it('stores a label and a note on a trial and lists them oldest first', async () => {
      const store = await withTrials();
      const first = await store.addAnnotation('exp-0001', {
        run_id: 'bravo#0',
        label: 'flaky-env',
        note: 'the sandbox lost its network <script>x</script>',
        author: 'Ada',
      });
      expect(first).toMatchObject({
        experiment_id: 'exp-0001',
        run_id: 'bravo#0',
        label: 'flaky-env',
        note: 'the sandbox lost its network <script>x</script>',
        author: 'Ada',
      });
      expect(Number.isNaN(Date.parse(first.created_at))).toBe(false);
      const second = await store.addAnnotation('exp-0001', {
        run_id: 'alpha#0',
        note: '  only a note  ',
        author: 'Bo',
      });
      expect(second.label).toBe('');
      expect(second.note).toBe('only a note');
      expect(second.id).toBeGreaterThan(first.id);
      expect(await store.listAnnotations('exp-0001')).toEqual([first, second]);
      expect(await store.listAnnotations('ghost')).toEqual([]);
    });

    it('keeps annotations when the record is replaced, and drops them with the experiment', async () => {
      const store = await withTrials();
      await store.addAnnotation('exp-0001', { run_id: 'alpha#0', label: 'checked', author: 'Ada' });
      await store.appendRecord('exp-0001', makeRecord({ outcome: 'fail' }));
      expect(await store.listAnnotations('exp-0001')).toHaveLength(1);
      await store.deleteExperiment('exp-0001');
      expect(await store.listAnnotations('exp-0001')).toEqual([]);
      await store.createExperiment(makeExperiment({ records: [makeRecord()] }));
      expect(await store.listAnnotations('exp-0001')).toEqual([]);
    });

    it('refuses an unknown experiment or trial with not_found and stores nothing', async () => {
      const store = await withTrials();
      const ghost = await rejection(
        store.addAnnotation('ghost', { run_id: 'alpha#0', label: 'x', author: 'Ada' }),
      );
      expect(ghost.code).toBe('not_found');
      const run = await rejection(
        store.addAnnotation('exp-0001', { run_id: 'zulu#0', label: 'x', author: 'Ada' }),
      );
      expect(run.code).toBe('not_found');
      expect(run.message).toContain('zulu#0');
      expect(await store.listAnnotations('exp-0001')).toEqual([]);
    });

    it('refuses an empty, nameless, multi-line-label or oversized annotation with invalid_input', async () => {
      const store = await withTrials();
      const cases = [
        { run_id: 'alpha#0', label: ' ', note: '', author: 'Ada' },
        { run_id: 'alpha#0', label: 'x', author: '  ' },
        { run_id: 'alpha#0', label: 'two\nlines', author: 'Ada' },
        { run_id: 'alpha#0', label: 'x'.repeat(65), author: 'Ada' },
        { run_id: 'alpha#0', note: 'x'.repeat(10_001), author: 'Ada' },
      ];
      for (const annotation of cases) {
        const error = await rejection(store.addAnnotation('exp-0001', annotation));
        expect(error.code).toBe('invalid_input');
      }
      expect(await store.listAnnotations('exp-0001')).toEqual([]);
    });

    it('edits an annotation in place (same id, trial and time; updated_at set) and deletes one', async () => {
      const secret = 'sk-live-annotation-edit-0123456789';
      const store = await withTrials({ env: { SERVICE_API_KEY: secret } });
      const first = await store.addAnnotation('exp-0001', {
        run_id: 'bravo#0',
        label: 'flaky',
        author: 'Ada',
      });
      const second = await store.addAnnotation('exp-0001', { run_id: 'alpha#0', note: 'fine', author: 'Bo' });
      expect(first.updated_at).toBeUndefined();
      const edited = await store.updateAnnotation('exp-0001', first.id, {
        label: 'real-bug',
        note: `  see ${secret}  `,
        author: 'Cy',
      });
      expect(edited).toMatchObject({
        id: first.id,
        run_id: 'bravo#0',
        label: 'real-bug',
        note: 'see [REDACTED:SERVICE_API_KEY]',
        author: 'Cy',
        created_at: first.created_at,
      });
      expect(Number.isNaN(Date.parse(edited.updated_at ?? ''))).toBe(false);
      expect(await store.listAnnotations('exp-0001')).toEqual([edited, second]);
      // An edit that leaves nothing, or names no author, is refused and changes nothing.
      for (const bad of [
        { label: '', note: ' ', author: 'Cy' },
        { label: 'x', author: '' },
      ]) {
        const error = await rejection(store.updateAnnotation('exp-0001', first.id, bad));
        expect(error.code).toBe('invalid_input');
      }
      expect((await store.updateAnnotation('exp-0001', second.id, { note: 'ok', author: 'Bo' })).note).toBe(
        'ok',
      );
      for (const [experiment, id] of [
        ['exp-0001', 9999],
        ['ghost', first.id],
      ] as const) {
        const error = await rejection(store.updateAnnotation(experiment, id, { label: 'x', author: 'Ada' }));
        expect(error.code).toBe('not_found');
      }
      expect(await store.deleteAnnotation('exp-0001', first.id)).toBe(true);
      expect(await store.deleteAnnotation('exp-0001', first.id)).toBe(false);
      expect(await store.deleteAnnotation('ghost', second.id)).toBe(false);
      expect((await store.listAnnotations('exp-0001')).map((a) => a.id)).toEqual([second.id]);
      // Ids are not reused: the next one is still later than every earlier one.
      const third = await store.addAnnotation('exp-0001', { run_id: 'alpha#0', label: 'new', author: 'Ada' });
      expect(third.id).toBeGreaterThan(second.id);
    });

    it('restores the times of an exported annotation, and refuses times that are not ISO', async () => {
      const store = await withTrials();
      const times = { created_at: '2026-11-30T08:00:00.000Z', updated_at: '2026-11-30T09:30:00.000Z' };
      const restored = await store.addAnnotation(
        'exp-0001',
        { run_id: 'bravo#0', label: 'flaky', author: 'Ada' },
        times,
      );
      const unedited = await store.addAnnotation(
        'exp-0001',
        { run_id: 'alpha#0', note: 'fine', author: 'Bo' },
        { created_at: '2026-11-29T10:00:00.000Z' },
      );
      expect(restored).toMatchObject(times);
      expect(unedited.created_at).toBe('2026-11-29T10:00:00.000Z');
      expect(unedited.updated_at).toBeUndefined();
      expect(await store.listAnnotations('exp-0001')).toEqual([restored, unedited]);
      const error = await rejection(
        store.addAnnotation(
          'exp-0001',
          { run_id: 'alpha#0', label: 'x', author: 'Ada' },
          { created_at: 'yesterday' },
        ),
      );
      expect(error.code).toBe('invalid_input');
      expect(await store.listAnnotations('exp-0001')).toHaveLength(2);
    });

    it('never stores a secret-looking environment value written in a note', async () => {
      const secret = 'sk-live-annotation-0123456789';
      const store = await withTrials({ env: { SERVICE_API_KEY: secret } });
      await store.addAnnotation('exp-0001', { run_id: 'alpha#0', note: `pasted ${secret}`, author: 'Ada' });
      const [stored] = await store.listAnnotations('exp-0001');
      expect(stored?.note).toBe('pasted [REDACTED:SERVICE_API_KEY]');
    });
  });
}
