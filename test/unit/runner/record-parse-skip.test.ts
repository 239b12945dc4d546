import { describe, expect, it } from 'vitest';
import type { AgentV1 } from '../../../src/adapters/types.ts';
import { agentOutput } from '../../../src/core/agent-output.ts';
import { HarnessConfigSchema } from '../../../src/core/harness-config.ts';
import { RunRecordSchema } from '../../../src/core/run-record.ts';
import { SuiteSchema } from '../../../src/core/suite.ts';
import { runExperiment } from '../../../src/runner/runner.ts';

// runner/record.ts takes a record as it was built when RunRecordSchema's parse would return it
// unchanged. These hold that shortcut to the parse: same records, key order included, and the
// parse still decides whatever is not already in its form.

const harness = HarnessConfigSchema.parse({ name: 'varied', version: '1.0.0', adapter: 'in-process' });

const suite = SuiteSchema.parse({
  id: 'parse-skip',
  tasks: [
    { id: 'plain', input: 'a', expected: 'a' },
    { id: 'object-input', input: { q: 'b', n: [1, 2] }, expected: 'b' },
    { id: 'no-expected', input: 'c' },
  ],
});

/** Passes, fails, errors, tool calls, traces with defaults left out, and a non-finite latency. */
const agent: AgentV1 = {
  specificationVersion: 'v1',
  name: 'varied',
  async run(input, ctx) {
    const text = typeof input === 'string' ? input : 'b';
    switch (ctx.epoch) {
      case 0:
        return agentOutput({ output: text, latency: 0.01 });
      case 1:
        return agentOutput({
          output: `${text}!`,
          latency: 0.02,
          tool_calls: [{ tool_name: 'search', args: { q: text }, result: { hits: 1 }, duration: 0.1 }],
          usage: { tokens_in: 3, tokens_out: 4, cost_usd: 0.001 },
        });
      case 2:
        return agentOutput({ output: null, error: 'boom', error_kind: 'crash', latency: 0.03 });
      case 3:
        // A trace event without its defaulted fields: the parse must fill them.
        return {
          ...agentOutput({ output: text, latency: 0.04 }),
          trace: { agent_calls: [{ role: 'planner' }] },
        } as ReturnType<typeof agentOutput>;
      default:
        // Not an AgentOutput at all: the trial's failure, not the run's crash.
        return { answer: text } as unknown as ReturnType<typeof agentOutput>;
    }
  },
};

describe('records the runner takes without a parse', () => {
  it('are exactly what RunRecordSchema.parse returns for them, key order included', async () => {
    const experiment = await runExperiment({ suite, harness, agent, settings: { epochs: 5 } });
    expect(experiment.records).toHaveLength(15);
    expect(new Set(experiment.records.map((r) => r.outcome))).toEqual(new Set(['pass', 'fail', 'error']));
    for (const record of experiment.records)
      expect(JSON.stringify(RunRecordSchema.parse(record))).toBe(JSON.stringify(record));
    // The trace the agent left incomplete came out of the parse, with its defaults filled in.
    const filled = experiment.records.find((r) => r.epoch === 3 && r.task_id === 'plain');
    expect(filled?.trace.agent_calls[0]).toMatchObject({ role: 'planner', tokens_in: 0 });
  });

  it('turn an adapter output that is no AgentOutput into an invalid_output error of its trial', async () => {
    const experiment = await runExperiment({ suite, harness, agent, settings: { epochs: 5 } });
    const broken = experiment.records.filter((r) => r.epoch === 4);
    expect(broken).toHaveLength(3);
    for (const record of broken) {
      expect(record.outcome).toBe('error');
      expect(record.output.error_kind).toBe('invalid_output');
      expect(record.error).toMatch(/the adapter returned an invalid AgentOutput: output: /);
    }
  });
});
