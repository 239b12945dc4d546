import { setTimeout as delay } from 'node:timers/promises';
import { processesMatching } from '../../src/testing/processes.ts';

export { processesMatching };

/** Waits up to `ms` for every process matching `marker` to be gone; the survivors, if any. */
export async function survivors(
  marker: string,
  ms = 3000,
  where: 'cmdline' | 'environ' = 'cmdline',
): Promise<number[]> {
  const until = performance.now() + ms;
  let left = processesMatching(marker, where);
  while (left.length > 0 && performance.now() < until) {
    await delay(50);
    left = processesMatching(marker, where);
  }
  return left;
}

/** A number no other process's arguments will contain (`sleep <marker>` finds our children). */
export function uniqueSeconds(): string {
  return `${1000 + Math.floor(Math.random() * 8000)}.${process.pid}${Math.floor(Math.random() * 1000)}`;
}
