import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Live processes (not zombies) whose command line (or environment) contains `marker` (Linux:
 * reads /proc).
 */
export function processesMatching(marker: string, where: 'cmdline' | 'environ' = 'cmdline'): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/${where}`, 'utf8').replaceAll('\0', ' ');
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (cmdline.includes(marker) && state !== 'Z') found.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

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
