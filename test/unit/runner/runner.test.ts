import { describe, expect, it } from 'vitest';
import type { AgentV1 } from '../../../src/adapters/types.ts';
import { agentOutput } from '../../../src/core/agent-output.ts';
import { HarnessConfigSchema } from '../../../src/core/harness-config.ts';
import { type Suite, SuiteSchema } from '../../../src/core/suite.ts';
import { isValidated } from '../../../src/core/validated-record.ts';
import type { RunnerEvent } from '../../../src/runner/events.ts';
import { runExperiment } from '../../../src/runner/runner.ts';
import { MemoryStore } from '../../../src/store/memory-store.ts';

const harness = HarnessConfigSchema.parse({ name: 'scripted', version: '1.0.0', adapter: 'in-process' });

function suite(count: number, extra: Partial<Suite> = {}): Suite {
  return SuiteSchema.parse({
    id: 'unit-suite',
    tasks: Array.from({ length: count }, (_, i) => ({
      id: `t${i}`,
      input: `task ${i}`,
      expected: `answer ${i}`,
      tags: i % 2 ? ['odd'] : ['even'],
    })),
    ...extra,
  });
}

/** An agent whose behaviour per input is scripted; it records how many calls overlap. */
function scripted(
  behaviour: (
    input: string,
    attempt: number,
  ) => Promise<ReturnType<typeof agentOutput>> | ReturnType<typeof agentOutput>,
) {
  let active = 0;
  const stats = { maxActive: 0, calls: new Map<string, number>() };
  const agent: AgentV1 = {
    specificationVersion: 'v1',
    name: 'scripted',
    async run(input) {
      const key = String(input);
      const attempt = (stats.calls.get(key) ?? 0) + 1;
      stats.calls.set(key, attempt);
      active++;
      stats.maxActive = Math.max(stats.maxActive, active);
      try {
        return await behaviour(key, attempt);
      } finally {
        active--;
      }
    },
  };
  return { agent, stats };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const answer = (input: string) => agentOutput({ output: input.replace('task', 'answer') });

describe('runExperiment', () => {
  it('returns records in file order whatever the completion order, under the concurrency limit', async () => {
    const { agent, stats } = scripted(async (input) => {
      await sleep(40 - Number(input.split(' ')[1]) * 4); // later tasks finish first
      return answer(input);
    });
    const experiment = await runExperiment({ suite: suite(8), harness, agent, settings: { concurrency: 3 } });
    expect(experiment.records.map((r) => r.task_id)).toEqual([
      't0',
      't1',
      't2',
      't3',
      't4',
      't5',
      't6',
      't7',
    ]);
    expect(stats.maxActive).toBe(3);
    expect(experiment.records.every((r) => r.outcome === 'pass')).toBe(true);
    expect(experiment.status).toBe('completed');
    expect(experiment.metrics.find((m) => m.name === 'success_rate')?.value).toBe(1);
  });

  it('records a timed-out or crashing trial as an error and goes on with the others', async () => {
    const { agent } = scripted(async (input) => {
      if (input === 'task 1') await sleep(5000);
      if (input === 'task 2') throw new Error('adapter bug');
      return answer(input);
    });
    const experiment = await runExperiment({
      suite: suite(4),
      harness,
      agent,
      settings: { timeout_seconds: 0.2 },
    });
    const byId = Object.fromEntries(experiment.records.map((r) => [r.task_id, r]));
    expect(byId['t0']?.outcome).toBe('pass');
    expect(byId['t1']).toMatchObject({ outcome: 'error', output: { error_kind: 'timeout' } });
    expect(byId['t2']?.outcome).toBe('error');
    expect(byId['t2']?.error).toContain('adapter bug');
    expect(byId['t3']?.outcome).toBe('pass');
    expect(experiment.metrics.find((m) => m.name === 'error_rate')?.value).toBe(0.5);
  });

  it('retries transient errors only, with the number of attempts recorded', async () => {
    const { agent, stats } = scripted((input, attempt) => {
      if (input === 'task 0' && attempt < 3)
        return agentOutput({ output: null, error: 'HTTP 503', error_kind: 'transient' });
      if (input === 'task 1') return agentOutput({ output: null, error: 'bad request', error_kind: 'agent' });
      return answer(input);
    });
    const experiment = await runExperiment({
      suite: suite(2),
      harness,
      agent,
      settings: { retries: 3, seed: 1 },
    });
    expect(experiment.records[0]).toMatchObject({ outcome: 'pass', attempts: 3 });
    expect(experiment.records[1]).toMatchObject({ outcome: 'error', attempts: 1 });
    expect(stats.calls.get('task 1')).toBe(1);
  });

  it('runs every epoch, filters by tag, and stores each trial as it finishes', async () => {
    const store = new MemoryStore();
    const { agent } = scripted((input) => answer(input));
    const events: RunnerEvent['type'][] = [];
    const experiment = await runExperiment({
      suite: suite(4),
      harness,
      agent,
      store,
      settings: { epochs: 2, filters: { tag: 'odd' } },
      onEvent: async (event) => {
        events.push(event.type);
        if (event.type === 'trial_end') {
          const stored = await store.getExperiment(event.record.experiment_id ?? '');
          expect(stored?.records.some((r) => r.run_id === event.record.run_id)).toBe(true);
        }
      },
    });
    expect(experiment.records.map((r) => `${r.task_id}#${r.epoch}`)).toEqual([
      't1#0',
      't1#1',
      't3#0',
      't3#1',
    ]);
    expect(events[0]).toBe('run_start');
    expect(events.at(-1)).toBe('run_end');
    const stored = await store.getExperiment(experiment.id);
    expect(stored?.status).toBe('completed');
    expect(stored?.records).toHaveLength(4);
    // Validated once by the runner; the store takes them without parsing them again.
    expect(experiment.records.every((r) => isValidated(r))).toBe(true);
  });

  it('resumes an interrupted experiment without repeating or losing trials', async () => {
    const store = new MemoryStore();
    const controller = new AbortController();
    const first = scripted(async (input) => {
      if (input === 'task 2') controller.abort();
      await sleep(input === 'task 2' ? 0 : 5);
      return answer(input);
    });
    const interrupted = await runExperiment({
      suite: suite(6),
      harness,
      agent: first.agent,
      store,
      signal: controller.signal,
      settings: { concurrency: 1 },
    });
    expect(interrupted.status).toBe('interrupted');
    const done = interrupted.records.map((r) => r.task_id);
    expect(done).toEqual(['t0', 't1', 't2']); // the in-flight trial finished inside the grace period

    const second = scripted((input) => answer(input));
    const resumed = await runExperiment({
      suite: suite(6),
      harness,
      agent: second.agent,
      store,
      resume: interrupted.id,
    });
    expect(resumed.status).toBe('completed');
    expect(resumed.records.map((r) => r.task_id)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5']);
    expect([...second.stats.calls.keys()].sort()).toEqual(['task 3', 'task 4', 'task 5']);
    expect((await store.getExperiment(interrupted.id))?.records).toHaveLength(6);
  });

  it('leaves the stored experiment interrupted (resumable), not running, when the run breaks', async () => {
    const store = new MemoryStore();
    let ended = 0;
    const run = runExperiment({
      suite: suite(4),
      harness,
      agent: scripted((input) => answer(input)).agent,
      store,
      settings: { concurrency: 1 },
      onEvent: (event) => {
        if (event.type === 'trial_end' && ++ended === 2) throw new Error('a listener broke');
      },
    });
    await expect(run).rejects.toThrow('a listener broke');
    const [stored] = await store.listExperiments();
    expect(stored?.status).toBe('interrupted');
    expect(stored?.records).toBe(2);
  });

  it('stops at once on stopNow: the trials in flight are not stored', async () => {
    const store = new MemoryStore();
    const stopNow = new AbortController();
    const { agent } = scripted(async (input) => {
      if (input === 'task 0') return answer(input);
      stopNow.abort();
      await sleep(5000);
      return answer(input);
    });
    const experiment = await runExperiment({
      suite: suite(3),
      harness,
      agent,
      store,
      stopNow: stopNow.signal,
      settings: { concurrency: 1 },
    });
    expect(experiment.status).toBe('interrupted');
    expect(experiment.records.map((r) => r.task_id)).toEqual(['t0']);
  });

  it('abandons in-flight trials after the grace period so resume runs them again', async () => {
    const store = new MemoryStore();
    const controller = new AbortController();
    const { agent } = scripted(async (input, _attempt) => {
      if (input === 'task 0') return answer(input);
      controller.abort();
      await sleep(2000);
      return answer(input);
    });
    const experiment = await runExperiment({
      suite: suite(3),
      harness,
      agent,
      store,
      signal: controller.signal,
      graceMs: 50,
      settings: { concurrency: 2 },
    });
    expect(experiment.status).toBe('interrupted');
    expect(experiment.records.map((r) => r.task_id)).toEqual(['t0']);
  });

  it('checks thresholds and scores the suite', async () => {
    const { agent } = scripted((input) =>
      input === 'task 0' ? agentOutput({ output: 'wrong' }) : answer(input),
    );
    const experiment = await runExperiment({
      suite: suite(4, { thresholds: { success_rate: { minimum: 0.9, require_significant: false } } }),
      harness,
      agent,
    });
    expect(experiment.metrics.find((m) => m.name === 'success_rate')?.value).toBe(0.75);
    expect(experiment.violations).toEqual([
      expect.objectContaining({ metric: 'success_rate', condition: 'minimum', threshold: 0.9 }),
    ]);
    expect(experiment.scores['overall']).toBe(0.75);
    expect(experiment.outcome).toBe('pass');
  });

  it('gives an events file only to an agent that reports through files, and reads its events', async () => {
    const { appendFile } = await import('node:fs/promises');
    const seen: Record<string, string | undefined>[] = [];
    const agentThat = (reports: AgentV1['reports']): AgentV1 => ({
      specificationVersion: 'v1',
      name: 'reporter',
      ...(reports === undefined ? {} : { reports }),
      async run(input, ctx) {
        const events = ctx.env['HARNESSEVAL_EVENTS'];
        seen.push({ events });
        if (events !== undefined)
          await appendFile(
            events,
            `${JSON.stringify({ type: 'prompt', kind: 'unplanned', text: 'again' })}\n`,
          );
        return answer(String(input));
      },
    });
    const viaFiles = await runExperiment({ suite: suite(1), harness, agent: agentThat('files') });
    expect(seen[0]?.events).toMatch(/events/);
    expect(viaFiles.records[0]?.trace.prompts).toHaveLength(1);
    for (const reports of [undefined, 'trackers', 'response'] as const) {
      seen.length = 0;
      const experiment = await runExperiment({ suite: suite(1), harness, agent: agentThat(reports) });
      expect(seen[0]?.events).toBeUndefined();
      expect(experiment.records[0]?.trace.prompts).toHaveLength(0);
    }
  });

  it('refuses an empty selection and a resume without a store', async () => {
    const { agent } = scripted((input) => answer(input));
    await expect(
      runExperiment({ suite: suite(2), harness, agent, settings: { filters: { tag: 'none' } } }),
    ).rejects.toThrow(/no task matches/);
    await expect(runExperiment({ suite: suite(2), harness, agent, resume: 'exp-x' })).rejects.toThrow(
      /needs a store/,
    );
  });
});
