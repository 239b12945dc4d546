import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/** How often a terminating group is checked for survivors. */
const POLL_MS = 25;

/** Sends `signal` to every process in the group led by `pid`; false when none is left. */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    // ESRCH: the group is gone. EPERM: a member changed user; nothing more we may do.
    return false;
  }
}

/**
 * Whether the group still has a running member. `kill(-pgid, 0)` also counts zombies — dead
 * processes waiting for a parent (often PID 1 in a container, which may reap slowly) — so on
 * Linux /proc is read to ignore them; elsewhere the signal test is the answer.
 */
export function processGroupAlive(pid: number): boolean {
  if (!signalProcessGroup(pid, 0)) return false;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp ..."; comm may hold spaces and parentheses.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (pgrp === String(pid) && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

/**
 * Ends a process group — the harness and anything it started: SIGTERM first, then SIGKILL for
 * whatever is still alive after `graceMs`. Resolves when the group is gone or has been killed.
 */
export async function terminateProcessGroup(pid: number, graceMs = 2000): Promise<void> {
  if (!signalProcessGroup(pid, 'SIGTERM')) return;
  const deadline = performance.now() + graceMs;
  while (performance.now() < deadline) {
    await delay(POLL_MS);
    if (!processGroupAlive(pid)) return;
  }
  signalProcessGroup(pid, 'SIGKILL');
}
