import { describe, expect, it } from 'vitest';
import { RunRecordSchema } from '../../../src/core/run-record.ts';
import { atifToTrace, recordToAtif } from '../../../src/formats/atif.ts';
import { AtifTrajectorySchema, atifStrictIssues } from '../../../src/formats/atif-schema.ts';

const record = RunRecordSchema.parse({
  run_id: 'trial-1',
  task_id: 'demo/fix-bug',
  epoch: 2,
  harness_config: { name: 'my-harness', version: '1.2.0', model: 'claude-x' },
  timestamp: '2026-12-01T10:00:00Z',
  duration_seconds: 4,
  cost_usd: 0.03,
  outcome: 'pass',
  output: {
    output: 'fixed it',
    latency: 3.5,
    tool_calls: [
      { tool_name: 'bash', args: { cmd: 'ls' }, result: 'a.txt', duration: 0.2, id: 't1' },
      { tool_name: 'read', args: { path: 'a.txt' }, result: { lines: 3 }, status: 'error', role: 'reviewer' },
    ],
    usage: { tokens_in: 300, tokens_out: 60, cached_tokens: 100, cost_usd: 0.03 },
  },
  trace: {
    agent_calls: [
      {
        role: 'agent',
        model: 'claude-x',
        tokens_in: 100,
        tokens_out: 20,
        cached_tokens: 100,
        cost_usd: 0.01,
        at: '2026-12-01T10:00:01Z',
      },
      {
        role: 'reviewer',
        model: 'gpt-y',
        provider: 'openai',
        tokens_in: 150,
        tokens_out: 30,
        cost_usd: 0.02,
        duration_seconds: 1.5,
      },
      { role: 'planner', tokens_in: 50, tokens_out: 10, error: 'rate limited', metadata: { attempt: 2 } },
    ],
    agent_invocations: [
      { name: 'reviewer', id: 'inv-1', duration_seconds: 2 },
      { name: 'reviewer', error: 'crashed' },
    ],
    prompts: [{ kind: 'unplanned', role: 'operator', text: 'try again', at: '2026-12-01T10:00:02Z' }],
    human: [{ action: 'approve', kind: 'planned', minutes: 3 }],
    circuit_breakers: [{ type: 'CB2:review-rejection', trigger: 'two rejections' }],
    first_pass_approval: false,
    costs: [{ cost_usd: 0.001, role: 'agent', tokens_in: 0, tokens_out: 0 }],
  },
});

describe('ATIF v1.7', () => {
  it('our trace -> ATIF -> our trace keeps every field', () => {
    const atif = JSON.parse(JSON.stringify(recordToAtif(record))) as unknown;
    expect(atifStrictIssues(atif)).toEqual([]);
    const back = atifToTrace(AtifTrajectorySchema.parse(atif));
    expect(back.trace).toEqual(record.trace);
    expect(back.tool_calls).toEqual(record.output.tool_calls);
    expect(back.usage).toEqual(record.output.usage);
    expect(back.output).toBe('fixed it');
    expect(back.latency).toBe(3.5);
  });

  it('writes model calls as agent steps with metrics and sub-agent roles as sub-trajectories', () => {
    const atif = recordToAtif(record);
    expect(atif.schema_version).toBe('ATIF-v1.7');
    expect(atif.agent).toEqual({ name: 'my-harness', version: '1.2.0', model_name: 'claude-x' });
    expect(atif.steps.map((s) => s.source)).toEqual(['user', 'agent', 'agent']);
    expect(atif.steps[1]?.metrics).toEqual({
      prompt_tokens: 100,
      completion_tokens: 20,
      cached_tokens: 100,
      cost_usd: 0.01,
    });
    expect(atif.subagent_trajectories?.map((s) => [s.agent.name, s.trajectory_id, s.steps.length])).toEqual([
      ['reviewer', 'inv-1', 1],
      ['reviewer', 'trial-1:sub2', 0],
      ['planner', 'trial-1:sub3', 1],
    ]);
    expect(atif.final_metrics).toMatchObject({
      total_prompt_tokens: 300,
      total_cost_usd: 0.03,
      total_steps: 3,
    });
  });

  it('leaves total_cost_usd out when nobody priced the calls, and reads it back as unknown', () => {
    const unpriced = {
      ...record,
      output: { ...record.output, usage: { ...record.output.usage, cost_usd: null } },
      trace: { ...record.trace, agent_calls: record.trace.agent_calls.map(({ cost_usd: _, ...c }) => c) },
    };
    const atif = recordToAtif(unpriced);
    expect(atif.final_metrics).not.toHaveProperty('total_cost_usd');
    expect(atifToTrace(atif).usage.cost_usd).toBeNull();
  });

  it("reads another producer's trajectory: metrics steps are calls, tool results joined by call id", () => {
    const foreign = AtifTrajectorySchema.parse({
      schema_version: 'ATIF-v1.6',
      session_id: 's',
      agent: { name: 'claude-code', version: '2.0', model_name: 'sonnet' },
      steps: [
        { step_id: 1, source: 'user', message: 'Fix the bug' },
        {
          step_id: 2,
          source: 'agent',
          message: 'Looking',
          tool_calls: [{ tool_call_id: 'c1', function_name: 'Bash', arguments: { command: 'ls' } }],
          observation: { results: [{ source_call_id: 'c1', content: [{ type: 'text', text: 'x' }] }] },
          metrics: { prompt_tokens: 10, completion_tokens: 5 },
        },
        {
          step_id: 3,
          source: 'agent',
          message: [{ type: 'text', text: 'Done' }],
          metrics: { prompt_tokens: 20, completion_tokens: 2, cost_usd: 0.5 },
        },
      ],
      final_metrics: { total_prompt_tokens: 30, total_completion_tokens: 7 },
    });
    const read = atifToTrace(foreign);
    expect(read.output).toBe('Done');
    expect(read.trace.agent_calls.map((c) => [c.model, c.tokens_in])).toEqual([
      ['sonnet', 10],
      ['sonnet', 20],
    ]);
    expect(read.tool_calls).toEqual([
      {
        tool_name: 'Bash',
        args: { command: 'ls' },
        result: [{ type: 'text', text: 'x' }],
        status: 'success',
        id: 'c1',
      },
    ]);
    expect(read.usage).toEqual({ tokens_in: 30, tokens_out: 7, cached_tokens: 0, cost_usd: 0.5 });
    expect(read.trace.prompts).toEqual([]);
  });

  it('the strict check rejects what Harbor rejects', () => {
    const atif = JSON.parse(JSON.stringify(recordToAtif(record))) as { steps: Record<string, unknown>[] };
    (atif.steps[0] as Record<string, unknown>)['bogus'] = 1;
    expect(atifStrictIssues(atif).map((i) => i.path.join('.'))).toEqual(['steps.0']);
    expect(atifStrictIssues({ ...atif, schema_version: 'v2' }).length).toBeGreaterThan(0);
  });
});
