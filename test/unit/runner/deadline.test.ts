import { describe, expect, it } from 'vitest';
import { emptyTrace, TraceSchema } from '../../../src/core/agent-output.ts';
import { TrialDeadlines } from '../../../src/runner/deadline.ts';
import { isTimeoutReason } from '../../../src/util/timeout.ts';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('TrialDeadlines', () => {
  it('fires a trial signal with a TimeoutError at its deadline', async () => {
    const deadline = new TrialDeadlines().start(10);
    expect(deadline.signal.aborted).toBe(false);
    await tick(40);
    expect(deadline.signal.aborted).toBe(true);
    expect(isTimeoutReason(deadline.signal.reason)).toBe(true);
    expect(String(deadline.signal.reason)).toMatch(/timed out after 10 ms/);
  });

  it('never fires once disposed', async () => {
    const deadline = new TrialDeadlines().start(10);
    deadline.dispose();
    await tick(40);
    expect(deadline.signal.aborted).toBe(false);
  });

  it('aborts the live trials, and every later one, with the stop reason', () => {
    const deadlines = new TrialDeadlines();
    const live = deadlines.start(60_000);
    const ended = deadlines.start(60_000);
    ended.dispose();
    const reason = new Error('interrupted');
    deadlines.abortAll(reason);
    expect(deadlines.aborted).toBe(true);
    expect(live.signal.reason).toBe(reason);
    expect(isTimeoutReason(live.signal.reason)).toBe(false);
    expect(ended.signal.aborted).toBe(false);
    const later = deadlines.start(60_000);
    expect(later.signal.aborted).toBe(true);
    expect(later.signal.reason).toBe(reason);
    live.dispose();
  });
});

describe('emptyTrace', () => {
  it('equals what the schema gives for an empty trace, fresh each time', () => {
    expect(emptyTrace()).toEqual(TraceSchema.parse({}));
    const a = emptyTrace();
    a.prompts.push({ kind: 'planned', text: 'x' });
    expect(emptyTrace().prompts).toEqual([]);
  });
});
