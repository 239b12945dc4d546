import { describe, expect, it } from 'vitest';
import { SuiteSchema } from '../../../src/core/suite.ts';
import { resumedSettings, resumedTasks, retriedSettings } from '../../../src/runner/resume-plan.ts';
import { standingOf } from '../../../src/runner/stored-trials.ts';
import { makeExperiment, makeRecord } from '../../helpers/experiments.ts';

const stored = makeExperiment({
  settings: { epochs: 3, concurrency: 4, timeout_seconds: 30, retries: 1, seed: 7, filters: { id: 't-1*' } },
  suite: { id: 's', tasks: [{ id: 't-12' }, { id: 't-10' }] },
});

describe('resumedSettings', () => {
  it('keeps the stored plan and takes only the concurrency asked for now', () => {
    expect(resumedSettings(stored, { concurrency: 9 })).toEqual({ ...stored.settings, concurrency: 9 });
    expect(resumedSettings(stored, {})).toEqual(stored.settings);
  });

  it('accepts plan settings equal to the stored ones', () => {
    expect(resumedSettings(stored, { epochs: 3, seed: 7, filters: { id: 't-1*' } })).toEqual(stored.settings);
  });

  it('refuses every plan setting that differs, naming each with what it ran with', () => {
    expect(() => resumedSettings(stored, { epochs: 1, retries: 0, filters: {} })).toThrow(
      /--epochs 1 \(it ran with 3\); --retries 0 \(it ran with 1\); --filter-id\/--filter-tag\/--filter-difficulty \{\} \(it ran with \{"id":"t-1\*"\}\)/,
    );
    expect(() => resumedSettings(makeExperiment(), { seed: 3 })).toThrow(/--seed 3 \(it ran with none\)/);
  });
});

describe('resumedTasks', () => {
  const suite = SuiteSchema.parse({
    id: 's',
    tasks: ['t-00', 't-10', 't-11', 't-12'].map((id) => ({ id, input: id })),
  });

  it('takes the stored tasks in the stored order, not the filters run again', () => {
    expect(resumedTasks(suite, stored).map((t) => t.id)).toEqual(['t-12', 't-10']);
  });

  it('refuses a stored task that the suite no longer has', () => {
    const gone = makeExperiment({ suite: { id: 's', tasks: [{ id: 't-99' }] } });
    expect(() => resumedTasks(suite, gone)).toThrow(/ran task t-99, which suite s no longer has/);
  });
});

describe('standingOf', () => {
  const kept = makeRecord({ task_id: 'a' });
  const aborted = makeRecord({
    task_id: 'b',
    outcome: 'error',
    output: { output: null, error: 'the trial was aborted: interrupted', error_kind: 'aborted' },
  });
  const transient = makeRecord({
    task_id: 'c',
    outcome: 'error',
    output: { output: null, error: 'HTTP 503', error_kind: 'transient' },
  });

  it('drops trials that were aborted (not results of the harness) so that they run again', () => {
    expect(standingOf(kept, 'resume')).toBe('kept');
    expect(standingOf(aborted, 'resume')).toBe('ignored');
    expect(standingOf(transient, 'resume')).toBe('kept');
  });

  it('runs again, with --retry-errors, the errors outside the harness and keeps the rest', () => {
    expect(standingOf(kept, 'retry')).toBe('kept');
    expect(standingOf(aborted, 'retry')).toBe('ignored');
    expect(standingOf(transient, 'retry')).toBe('retry');
  });
});

describe('retriedSettings', () => {
  it('keeps the stored plan but lets the timeout and the retries change', () => {
    expect(retriedSettings(stored, { timeout_seconds: 90, retries: 3, epochs: 3 })).toMatchObject({
      epochs: 3,
      seed: 7,
      timeout_seconds: 90,
      retries: 3,
      filters: { id: 't-1*' },
    });
    expect(() => retriedSettings(stored, { epochs: 1 })).toThrow(
      new RegExp(
        `--retry-errors ${stored.id} continues the stored plan; these options contradict it: --epochs 1 \\(it ran with 3\\)`,
      ),
    );
  });
});
