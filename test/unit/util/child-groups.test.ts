import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ChildGroupListener,
  newProcessTag,
  trackChildGroup,
  withChildGroupListener,
} from '../../../src/util/child-groups.ts';
import { TurnQueue } from '../../../src/util/turn-queue.ts';

const children: ReturnType<typeof spawn>[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** Starts a real process (its own group) and tracks it, as an adapter does. */
function startTracked(): () => void {
  const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  children.push(child);
  if (child.pid === undefined) throw new Error('sleep did not start');
  return trackChildGroup(child.pid, newProcessTag());
}

function recording(): { l: ChildGroupListener; started: number[]; ended: number[] } {
  const started: number[] = [];
  const ended: number[] = [];
  return { l: { started: (g) => started.push(g.pid), ended: (g) => ended.push(g.pid) }, started, ended };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('withChildGroupListener', () => {
  it('reports each group to the run it was started in, with runs overlapping and nested', async () => {
    const a = recording();
    const b = recording();
    const c = recording();
    let endB: () => void = () => {};
    await withChildGroupListener(a.l, async () => {
      await tick();
      const endA = startTracked();
      // A second run in the same process while the first is active, started from outside it.
      const second = new Promise<void>((resolve) => {
        setImmediate(() =>
          withChildGroupListener(b.l, async () => {
            await tick();
            endB = startTracked();
            resolve();
          }),
        );
      });
      // And one nested inside the first.
      await withChildGroupListener(c.l, async () => {
        await tick();
        startTracked();
      });
      await second;
      await tick();
      startTracked(); // the first run's again, after the others started
      endA();
    });
    expect(a.started).toHaveLength(2);
    expect(b.started).toHaveLength(1);
    expect(c.started).toHaveLength(1);
    expect(a.ended).toEqual([a.started[0]]);
    // The end is told to the run that saw the start, even after that run returned.
    endB();
    expect(b.ended).toEqual(b.started);
    expect(new Set([...a.started, ...b.started, ...c.started]).size).toBe(4);
  });

  it('after a run ends, a group started outside any run reaches no listener, and the next run gets its own', async () => {
    const a = recording();
    await withChildGroupListener(a.l, async () => {
      await tick();
    });
    startTracked();
    expect(a.started).toEqual([]);
    const b = recording();
    await withChildGroupListener(b.l, async () => {
      startTracked();
    });
    expect(b.started).toHaveLength(1);
    expect(a.started).toEqual([]);
  });

  it('a run that throws at once or returns a plain value releases its place', () => {
    const a = recording();
    expect(() =>
      withChildGroupListener(a.l, () => {
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(withChildGroupListener(a.l, () => 7)).toBe(7);
    startTracked();
    expect(a.started).toEqual([]);
  });
});

describe('withChildGroupListener: overlapping runs with one listener (a queue worker’s trials of one experiment)', () => {
  it('reports to the listener until the last of its runs ends, not the first', async () => {
    const a = recording();
    let releaseFirst: () => void = () => {};
    const first = withChildGroupListener(a.l, () => new Promise<void>((resolve) => (releaseFirst = resolve)));
    let startInSecond: () => void = () => {};
    const second = withChildGroupListener(
      a.l,
      () =>
        new Promise<void>((resolve) => {
          startInSecond = () => {
            startTracked();
            resolve();
          };
        }),
    );
    releaseFirst();
    await first;
    // The first run is over; the second, with the same listener, still runs.
    startInSecond();
    await second;
    expect(a.started).toHaveLength(1);
    startTracked();
    expect(a.started).toHaveLength(1);
  });

  it('gives a run of another listener started inside one of them its own, and the shared one keeps its own', async () => {
    const a = recording();
    const b = recording();
    await Promise.all([
      withChildGroupListener(a.l, async () => {
        await tick();
        await withChildGroupListener(b.l, async () => {
          await tick();
          // A run of the shared listener started from inside b's: its groups are a's.
          await withChildGroupListener(a.l, async () => {
            startTracked();
          });
          startTracked();
        });
      }),
      withChildGroupListener(a.l, async () => {
        await tick();
        startTracked();
      }),
    ]);
    expect(a.started).toHaveLength(2);
    expect(b.started).toHaveLength(1);
  });
});

describe('TurnQueue', () => {
  it('runs the jobs of one turn after it, in order, each settling as its job does', async () => {
    const queue = new TurnQueue();
    const log: string[] = [];
    const one = queue.run(async () => {
      log.push('one');
      return 1;
    });
    const two = queue.run(async () => {
      log.push('two');
      throw new Error('two failed');
    });
    const three = queue.run((() => {
      log.push('three');
      throw new Error('sync throw');
    }) as () => Promise<never>);
    log.push('queued');
    await expect(one).resolves.toBe(1);
    await expect(two).rejects.toThrow('two failed');
    await expect(three).rejects.toThrow('sync throw');
    expect(log).toEqual(['queued', 'one', 'two', 'three']);
    // A later turn gets a flush of its own.
    await expect(queue.run(async () => 'again')).resolves.toBe('again');
  });
});
