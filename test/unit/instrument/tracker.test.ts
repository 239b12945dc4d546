import { describe, expect, it } from 'vitest';
import { processMetrics } from '../../../src/instrument/process-metrics.ts';
import { RunTracker } from '../../../src/instrument/tracker.ts';

describe('RunTracker', () => {
  it('records and times agent calls, including failed ones', async () => {
    const tracker = new RunTracker();
    const answer = await tracker.wrapAgentCall(
      { role: 'developer', model: 'gpt-4o' },
      async () => ({ text: 'ok', usage: { in: 10, out: 5 } }),
      (r) => ({
        tokens_in: r.usage.in,
        tokens_out: r.usage.out,
      }),
    );
    expect(answer.text).toBe('ok');
    await expect(
      tracker.wrapAgentCall({ role: 'reviewer' }, async () => Promise.reject(new Error('rate limited'))),
    ).rejects.toThrow('rate limited');
    const calls = tracker.trace().agent_calls;
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ role: 'developer', model: 'gpt-4o', tokens_in: 10, tokens_out: 5 });
    expect(calls[0]?.duration_seconds).toBeGreaterThanOrEqual(0);
    expect(calls[1]).toMatchObject({ role: 'reviewer', error: 'rate limited' });
  });

  it('feeds the seed-004 process metrics', () => {
    const tracker = new RunTracker();
    const v = tracker.views();
    v.prompts.planned('plan the work');
    v.prompts.unplanned('you forgot the tests');
    v.prompts.unplanned();
    v.hitl.record({ action: 'review', kind: 'planned', minutes: 5 });
    v.hitl.record({ action: 'reject', kind: 'planned', minutes: 2 });
    v.hitl.record({ action: 'approve', kind: 'unplanned', minutes: 1 });
    v.breakers.fire('CB2:review-rejection', { trigger: 'rejected', resolution: 'retry' });
    v.breakers.fire('CB2:review-rejection');
    v.agents.record({ role: 'planner', tokens_in: 100, tokens_out: 10 });
    const m = processMetrics(tracker.trace(), [
      {
        id: 'a',
        verification: 'automated',
        status: 'passed',
        score: 1,
        explanation: '',
        grades: [],
        details: {},
      },
      {
        id: 'b',
        verification: 'rubric',
        status: 'pending',
        score: null,
        explanation: '',
        grades: [],
        details: {},
      },
    ]);
    expect(m).toMatchObject({
      prompts_total: 3,
      prompts_planned: 1,
      prompts_unplanned: 2,
      hitl_total: 3,
      hitl_planned: 2,
      hitl_unplanned: 1,
      first_pass_approval: false, // the first verdict was a rejection
      circuit_breakers_fired: 2,
      circuit_breaker_types: ['CB2:review-rejection'],
      acceptance_criteria_passed: 1,
      acceptance_criteria_total: 2,
      tokens_in: 100,
      tokens_out: 10,
      human_minutes: 8,
      agent_calls: 1,
    });
  });

  it('lets the harness state first-pass approval explicitly; null when nothing was reviewed', () => {
    const tracker = new RunTracker();
    expect(processMetrics(tracker.trace(), []).first_pass_approval).toBeNull();
    tracker.human({ action: 'reject', kind: 'planned' });
    tracker.firstPassApproval(true);
    expect(processMetrics(tracker.trace(), []).first_pass_approval).toBe(true);
  });
});
