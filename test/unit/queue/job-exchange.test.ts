import { afterEach, describe, expect, it, vi } from 'vitest';
import { JobExchange, type JobExchangeOptions } from '../../../src/queue/job-exchange.ts';
import type { TakenJob } from '../../../src/queue/trial-queue.ts';

interface Call {
  readonly done: readonly string[];
  readonly wanted: number;
  readonly answer: (result: { taken?: TakenJob[]; drained?: string[] }) => void;
  readonly fail: (error: Error) => void;
}

/** A queue whose exchanges the test answers by hand, and a worker whose wants it sets. */
function harness(overrides: Partial<JobExchangeOptions> = {}) {
  const calls: Call[] = [];
  const taken: string[] = [];
  const errors: string[] = [];
  const worker = { wanted: 0, starving: false };
  const exchange = new JobExchange({
    queue: {
      exchange: (done, _tags, wanted) =>
        new Promise((resolve, reject) => {
          calls.push({
            done: [...done],
            wanted,
            answer: ({ taken = [], drained = [] }) => resolve({ taken, drained }),
            fail: reject,
          });
        }),
    },
    tags: [],
    wanted: () => worker.wanted,
    starving: () => worker.starving,
    onTaken: (jobs) => {
      taken.push(...jobs.map((job) => job.id));
      worker.wanted -= jobs.length;
      worker.starving = false;
    },
    onTakeError: (error) => errors.push((error as Error).message),
    ...overrides,
  });
  return { exchange, calls, taken, errors, worker };
}

const jobs = (...ids: string[]): TakenJob[] => ids.map((id) => ({ id, data: {}, retryCount: 0 }));
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
});

describe('JobExchange: completions and takes, one statement out at a time', () => {
  it('sends the completions of one turn together, with a take of what the worker wants riding along', async () => {
    const { exchange, calls, taken, worker } = harness();
    worker.wanted = 3;
    const completed = ['j1', 'j2', 'j3'].map((jobId) => exchange.complete({ jobId, experimentId: 'e' }));
    await turn();
    expect(calls.map((c) => [c.done, c.wanted])).toEqual([[['j1', 'j2', 'j3'], 3]]);
    calls[0]?.answer({ taken: jobs('k1', 'k2', 'k3'), drained: ['e'] });
    // One of the experiment's completions is told it is drained: its caller checks for the finish.
    expect((await Promise.all(completed)).filter(Boolean)).toHaveLength(1);
    expect(taken).toEqual(['k1', 'k2', 'k3']);
  });

  it('asks at once for a starving worker, and not at all for one that is busy and has nothing to complete', async () => {
    const { exchange, calls, worker } = harness();
    worker.wanted = 4; // jobs ahead it would like, but every slot is busy
    exchange.poke();
    await turn();
    expect(calls).toHaveLength(0);
    worker.starving = true;
    exchange.poke();
    await turn();
    expect(calls.map((c) => [c.done, c.wanted])).toEqual([[[], 4]]);
  });

  it('keeps one exchange out: what arrives meanwhile goes in the next, as soon as the first returns', async () => {
    const { exchange, calls } = harness();
    const first = exchange.complete({ jobId: 'a', experimentId: 'e' });
    await turn();
    const second = exchange.complete({ jobId: 'b', experimentId: 'e' });
    const third = exchange.complete({ jobId: 'c', experimentId: 'f' });
    await turn();
    expect(calls).toHaveLength(1);
    calls[0]?.answer({});
    await first;
    await turn();
    expect(calls.map((c) => c.done)).toEqual([['a'], ['b', 'c']]);
    calls[1]?.answer({ drained: ['f'] });
    expect([await second, await third]).toEqual([false, true]);
  });

  it('does not ask a queue that had too few jobs again before pollMs, unless completions go anyway', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate', 'performance'] });
    const { exchange, calls, worker } = harness({ pollMs: 500 });
    worker.wanted = 2;
    worker.starving = true;
    exchange.poke();
    await vi.advanceTimersByTimeAsync(0);
    calls[0]?.answer({ taken: [] });
    await vi.advanceTimersByTimeAsync(499);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((c) => c.wanted)).toEqual([2, 2]);
    calls[1]?.answer({ taken: [] });
    // Still dry, but a completion goes now, and a take with it.
    void exchange.complete({ jobId: 'x', experimentId: 'e' });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((c) => [c.done, c.wanted])).toEqual([
      [[], 2],
      [[], 2],
      [['x'], 2],
    ]);
  });

  it('a failed exchange rejects its completions (their jobs stay taken and expire) and reports the take', async () => {
    const { exchange, calls, errors, worker } = harness();
    worker.wanted = 1;
    const completion = exchange.complete({ jobId: 'a', experimentId: 'e' });
    await turn();
    calls[0]?.fail(new Error('connection lost'));
    await expect(completion).rejects.toThrow('connection lost');
    expect(errors).toEqual(['connection lost']);
  });

  it('takes nothing once closed; completions still go, and idle waits for them', async () => {
    const { exchange, calls, worker } = harness();
    worker.wanted = 5;
    worker.starving = true;
    exchange.close();
    const completion = exchange.complete({ jobId: 'a', experimentId: 'e' });
    let idle = false;
    const waited = exchange.idle().then(() => {
      idle = true;
    });
    await turn();
    expect(calls.map((c) => [c.done, c.wanted])).toEqual([[['a'], 0]]);
    expect(idle).toBe(false);
    calls[0]?.answer({});
    await completion;
    await waited;
    expect(calls).toHaveLength(1);
  });
});
