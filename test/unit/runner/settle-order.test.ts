import { describe, expect, it } from 'vitest';
import type { AgentV1 } from '../../../src/adapters/types.ts';
import { agentOutput } from '../../../src/core/agent-output.ts';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import { HarnessConfigSchema } from '../../../src/core/harness-config.ts';
import type { RunRecord } from '../../../src/core/run-record.ts';
import { SuiteSchema } from '../../../src/core/suite.ts';
import { runExperiment } from '../../../src/runner/runner.ts';
import { MemoryStore } from '../../../src/store/memory-store.ts';

const harness = HarnessConfigSchema.parse({ name: 'scripted', version: '1.0.0', adapter: 'in-process' });
const suite = (count: number) =>
  SuiteSchema.parse({
    id: 'settle-suite',
    tasks: Array.from({ length: count }, (_, i) => ({ id: `t${i}`, input: `t${i}`, expected: `t${i}` })),
  });

/** A memory store that logs every append, and can be told to refuse them. */
class LoggingStore extends MemoryStore {
  readonly log: string[] = [];
  batches: number[] = [];
  refuseFrom = Number.POSITIVE_INFINITY;
  #appends = 0;
  #thisTurn = 0;
  override async appendRecord(experimentId: string, record: RunRecord): Promise<void> {
    this.#appends++;
    if (this.#thisTurn === 0) setImmediate(() => this.#endTurn());
    this.#thisTurn++;
    this.log.push(`append ${record.task_id}`);
    if (this.#appends >= this.refuseFrom) throw new HarnessEvalError('store', 'disk full');
    await super.appendRecord(experimentId, record);
  }
  #endTurn(): void {
    this.batches.push(this.#thisTurn);
    this.#thisTurn = 0;
  }
}

function echoAgent(log: string[], delayMs: number): AgentV1 {
  return {
    specificationVersion: 'v1',
    name: 'echo',
    async run(input, ctx) {
      log.push(`start ${String(input)}`);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (ctx.signal.aborted) return agentOutput({ output: '', error: 'aborted', error_kind: 'aborted' });
      return agentOutput({ output: String(input) });
    },
  };
}

describe('settling finished trials', () => {
  it("starts a slot's next agent call before the finished trial is stored, and stores it before its trial_end", async () => {
    const store = new LoggingStore();
    const agent = echoAgent(store.log, 5);
    const experiment = await runExperiment({
      suite: suite(3),
      harness,
      agent,
      store,
      settings: { concurrency: 1 },
      onEvent: (event) => {
        if (event.type === 'trial_end') store.log.push(`end ${event.record.task_id}`);
      },
    });
    expect(experiment.records.map((r) => r.outcome)).toEqual(['pass', 'pass', 'pass']);
    expect(store.log).toEqual([
      'start t0',
      'start t1',
      'append t0',
      'end t0',
      'start t2',
      'append t1',
      'end t1',
      'append t2',
      'end t2',
    ]);
    const stored = await store.listRecords(experiment.id);
    expect(stored.map((r) => r.task_id)).toEqual(['t0', 't1', 't2']);
  });

  it('hands the store the records of the trials that finished in one turn together', async () => {
    const store = new LoggingStore();
    // Every trial finishes at once (no delay): 8 slots finish in the same turns.
    const experiment = await runExperiment({
      suite: suite(64),
      harness,
      agent: echoAgent([], 0),
      store,
      settings: { concurrency: 8 },
    });
    expect((await store.listRecords(experiment.id)).length).toBe(64);
    await new Promise((resolve) => setImmediate(resolve)); // the last turn's count
    expect(store.batches.reduce((a, b) => a + b, 0)).toBe(64);
    // Far fewer turns than records: the slots' records arrive together.
    expect(Math.max(...store.batches)).toBeGreaterThanOrEqual(4);
  });

  it('stops when the store refuses a record: the trial already started is not recorded, resume runs it', async () => {
    const store = new LoggingStore();
    store.refuseFrom = 2;
    const events: string[] = [];
    const experiment = await runExperiment({
      suite: suite(4),
      harness,
      agent: echoAgent(store.log, 20),
      store,
      settings: { concurrency: 1 },
      onEvent: (event) => {
        if (event.type === 'store_failed') events.push(`store_failed ${event.error}`);
        if (event.type === 'trial_end') events.push(`end ${event.record.task_id}`);
      },
    });
    expect(events).toEqual(['end t0', expect.stringMatching(/^store_failed .*disk full/)]);
    expect(experiment.status).toBe('interrupted');
    // t0 stored; t1 refused; t2 had started and was stopped without a result; t3 never started.
    expect((await store.listRecords(experiment.id)).map((r) => r.task_id)).toEqual(['t0']);
    expect(store.log.filter((l) => l.startsWith('start'))).toEqual(['start t0', 'start t1', 'start t2']);
  });

  it('a failure that is not the store fails the run', async () => {
    const store = new LoggingStore();
    const broken = new LoggingStore();
    broken.appendRecord = async () => {
      throw new Error('boom');
    };
    await expect(
      runExperiment({
        suite: suite(3),
        harness,
        agent: echoAgent([], 1),
        store: broken,
        settings: { concurrency: 2 },
      }),
    ).rejects.toThrow('boom');
    expect(store.log).toEqual([]);
  });
});
