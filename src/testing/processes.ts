import { readdirSync, readFileSync } from 'node:fs';

/**
 * Live processes (not zombies) whose command line (or environment) contains `marker`, for an
 * orphan check: give the processes a harness starts a unique argument, then expect none left
 * (`orphans` in `adapterContract`). Linux only (reads /proc); elsewhere it finds nothing.
 *
 * @example
 * const marker = `sleep-${process.pid}-${Date.now()}`;
 * // ... the harness runs `sleep 1000 ${marker}` and is stopped ...
 * expect(processesMatching(marker)).toEqual([]);
 */
export function processesMatching(marker: string, where: 'cmdline' | 'environ' = 'cmdline'): number[] {
  const found: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
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
