import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentV1 } from '../../src/adapters/types.ts';
import { type AgentOutput, agentOutput } from '../../src/core/agent-output.ts';
import {
  type AdapterContractFactory,
  adapterContract,
  type ContractTestApi,
  notApplicable,
  processesMatching,
  scriptedAgent,
} from '../../src/testing.ts';

// The contract must fail an adapter that breaks it: it is run here through a test API that
// collects its cases, against agents that break one rule each.
type Verdict = 'pass' | 'fail' | 'skip';

async function verdicts(factory: AdapterContractFactory): Promise<Record<string, Verdict>> {
  const cases: { name: string; body?: () => Promise<void> }[] = [];
  const it = Object.assign((name: string, body: () => Promise<void>) => void cases.push({ name, body }), {
    skip: (name: string) => void cases.push({ name }),
  });
  const api: ContractTestApi = { describe: (_name, body) => body(), it, expect };
  adapterContract('broken', api, factory, { stopAfterMs: 100 });
  const out: Record<string, Verdict> = {};
  for (const { name, body } of cases) {
    if (body === undefined) {
      out[name] = 'skip';
      continue;
    }
    out[name] = await body().then(
      () => 'pass' as const,
      () => 'fail' as const,
    );
  }
  return out;
}

const good = scriptedAgent({ answers: { hi: { output: 'hello' } } });
const agent = (run: AgentV1['run'], extra: Partial<AgentV1> = {}): AgentV1 => ({
  specificationVersion: 'v1',
  name: 'broken',
  reports: 'response',
  run,
  ...extra,
});
const base: AdapterContractFactory = {
  success: async () => ({ agent: good, input: 'hi', output: 'hello' }),
  errors: {},
  hang: notApplicable('not under test'),
  orphans: notApplicable('not under test'),
  usage: notApplicable('not under test'),
  events: notApplicable('not under test'),
};
/** An answer after `ms`, whatever the signal says. */
const late = (ms: number, output: AgentOutput) =>
  new Promise<AgentOutput>((r) => setTimeout(() => r(output), ms));

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) child.kill('SIGKILL');
});

describe('the adapter contract fails an adapter that breaks it', () => {
  it('passes a scripted agent and reports not-applicable cases as skipped', async () => {
    const result = await verdicts(base);
    expect(result['succeeds with a valid output']).toBe('pass');
    expect(result['reports usage: not applicable (not under test)']).toBe('skip');
  });

  it('fails a run that throws, an output of the wrong kind, and an invalid output', async () => {
    const result = await verdicts({
      ...base,
      success: async () => ({
        agent: agent(async () => ({ output: 'hello' }) as AgentOutput),
        input: 'hi',
        output: 'hello',
      }),
      errors: {
        throws: async () => ({
          agent: agent(async () => {
            throw new Error('boom');
          }),
          input: 'x',
          error_kind: 'agent',
        }),
        'wrong kind': async () => ({
          agent: scriptedAgent({ otherwise: { error: { message: 'no', kind: 'crash' } } }),
          input: 'x',
          error_kind: 'agent',
        }),
      },
    });
    expect(result).toMatchObject({
      'succeeds with a valid output': 'fail',
      'contains throws as an errored output': 'fail',
      'contains wrong kind as an errored output': 'fail',
    });
  });

  it('fails an agent that ignores its signal, and one whose close() fails the second time', async () => {
    let closed = 0;
    const result = await verdicts({
      ...base,
      success: async () => ({
        agent: agent(good.run, {
          close: async () => {
            closed += 1;
            if (closed > 1) throw new Error('closed twice');
          },
        }),
        input: 'hi',
        output: 'hello',
      }),
      hang: async () => ({
        agent: agent(() => late(400, agentOutput({ output: 'finished anyway' }))),
        input: 'x',
      }),
    });
    expect(result).toMatchObject({
      'succeeds with a valid output': 'fail',
      'stops at the trial timeout (timeout)': 'fail',
      'stops when the run is interrupted (aborted)': 'fail',
      'does not start a trial whose signal already fired (aborted)': 'fail',
    });
  });

  it('fails an agent that leaves a process behind, and usage or events that are not reported', async () => {
    const mark = `contract-self-${randomUUID()}`;
    const result = await verdicts({
      ...base,
      orphans: async () => ({
        agent: agent(async (_input, ctx) => {
          const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', mark], {
            stdio: 'ignore',
            detached: true,
          });
          started.push(child);
          await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
          return agentOutput({ output: null, error: 'timed out', error_kind: 'timeout' });
        }),
        input: 'x',
        leftovers: () => processesMatching(mark),
      }),
      usage: async () => ({ agent: good, input: 'hi', usage: { tokens_in: 5 } }),
      events: async () => ({ agent: good, input: 'hi', agent_calls: 1, tool_calls: ['search'] }),
    });
    expect(result).toMatchObject({
      'leaves no process behind after a timeout': 'fail',
      'reports usage': 'fail',
      'reports agent and tool calls': 'fail',
    });
  });
});
