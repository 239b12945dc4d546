import { describe, expect, it } from 'vitest';
import { restoredFiles, trialExplanation } from '../../../src/reporters/record-view.ts';
import { evaluation, record } from './experiment-factory.ts';

describe('trialExplanation', () => {
  it('says nothing for a pass, and why for a fail', () => {
    expect(trialExplanation(record({ task_id: 'a', outcome: 'pass' }))).toBeUndefined();
    const failed = record({
      task_id: 'b',
      outcome: 'fail',
      evaluations: [evaluation({ passed: false, explanation: 'no match' })],
    });
    expect(trialExplanation(failed)).toMatch(/no match/);
  });

  it('leads with the test files the harness had changed, whatever the outcome', () => {
    const metadata = { restored_files: ['test/acceptance/ac-01.test.ts', 7] };
    const passed = record({ task_id: 'a', outcome: 'pass', metadata });
    expect(restoredFiles(passed)).toEqual(['test/acceptance/ac-01.test.ts']);
    expect(trialExplanation(passed)).toBe(
      'the harness changed test/acceptance/ac-01.test.ts (restored before checking)',
    );
    const failed = record({
      task_id: 'b',
      outcome: 'fail',
      metadata,
      evaluations: [evaluation({ passed: false, explanation: 'exit 1' })],
    });
    expect(trialExplanation(failed)).toMatch(
      /^the harness changed test\/acceptance\/ac-01\.test\.ts \(restored before checking\); .*exit 1/,
    );
  });
});
