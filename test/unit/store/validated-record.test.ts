import { describe, expect, it } from 'vitest';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import type { RunRecord } from '../../../src/core/run-record.ts';
import { isValidated, markValidated } from '../../../src/core/validated-record.ts';
import { checkRecord } from '../../../src/store/documents.ts';
import { makeRecord } from '../../helpers/experiments.ts';

describe('records validated once (runner -> store)', () => {
  it('parses a record it was handed: a copy comes back, and a broken one is refused with its run named', () => {
    const record = makeRecord({ task_id: 'a' });
    const checked = checkRecord('exp', record);
    expect(checked).toEqual(record);
    expect(checked).not.toBe(record);
    const broken = { ...record, outcome: 'maybe' } as unknown as RunRecord;
    expect(() => checkRecord('exp', broken)).toThrow(HarnessEvalError);
    expect(() => checkRecord('exp', broken)).toThrow(/run a#0 of experiment exp is not valid: outcome/);
  });

  it('takes a record the runner marked as validated as it is, without parsing it again', () => {
    const record = markValidated(makeRecord({ task_id: 'b' }));
    expect(isValidated(record)).toBe(true);
    expect(checkRecord('exp', record)).toBe(record);
    // A copy is not vouched for.
    expect(isValidated({ ...record })).toBe(false);
  });

  it('still refuses a marked record that belongs to another experiment', () => {
    const record = markValidated(makeRecord({ task_id: 'c', experiment_id: 'other' }));
    expect(() => checkRecord('exp', record)).toThrow(/belongs to experiment other, not exp/);
  });
});
