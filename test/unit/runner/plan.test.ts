import { describe, expect, it } from 'vitest';
import type { Task } from '../../../src/core/task.ts';
import { planTrials } from '../../../src/runner/plan.ts';

const tasks = ['a', 'b', 'c'].map((id) => ({ id }) as Task);

describe('planTrials', () => {
  it('gives every trial in file order, epoch by epoch, with its key and length', () => {
    const plan = planTrials(tasks, 2);
    expect(plan.length).toBe(6);
    expect([...plan].map((t) => [t.task.id, t.taskIndex, t.epoch, t.key])).toEqual([
      ['a', 0, 0, 'a#0'],
      ['a', 0, 1, 'a#1'],
      ['b', 1, 0, 'b#0'],
      ['b', 1, 1, 'b#1'],
      ['c', 2, 0, 'c#0'],
      ['c', 2, 1, 'c#1'],
    ]);
  });

  it('holds only the trials `runs` keeps (a resume), and counts them', () => {
    const plan = planTrials(tasks, 3, (taskIndex, epoch) => (taskIndex + epoch) % 2 === 0);
    expect([...plan].map((t) => t.key)).toEqual(['a#0', 'a#2', 'b#1', 'c#0', 'c#2']);
    expect(plan.length).toBe(5);
    expect(planTrials(tasks, 3, () => false).length).toBe(0);
    expect([...planTrials([], 5)]).toEqual([]);
  });

  it('makes each trial when it is reached, so a long plan holds no list of them', () => {
    const asked: string[] = [];
    const plan = planTrials(tasks, 1, (taskIndex, epoch) => {
      asked.push(`${taskIndex}.${epoch}`);
      return true;
    });
    asked.length = 0;
    const untaken = plan[Symbol.iterator]();
    expect(untaken.next().value?.key).toBe('a#0');
    expect(asked).toEqual(['0.0']);
    // Iterated again from the start, the same trials in the same order.
    expect([...plan].map((t) => t.key)).toEqual(['a#0', 'b#0', 'c#0']);
    expect(untaken.next().value?.key).toBe('b#0');
  });
});
