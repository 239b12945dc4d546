import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Which process a pid is. Pids are reused, so a pid alone cannot say whether the HarnessEval that
 * recorded a lease or a child is still the process running under that number: the pid together
 * with the process's start time can. On Linux the start time is the `starttime` field of
 * `/proc/PID/stat` (clock ticks since boot) with the boot id; elsewhere `ps -o lstart=`.
 */

let bootId: string | undefined;

function linuxStart(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid ..."; comm may hold spaces and parentheses, so split after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  if (state === 'Z' || state === 'X') return undefined; // dead, waiting to be reaped
  bootId ??= (() => {
    try {
      return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      return '';
    }
  })();
  return `${bootId}:${fields[19] ?? ''}`;
}

function psStart(pid: number): string | undefined {
  const ps = spawnSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
    encoding: 'utf8',
    shell: false,
    timeout: 2000,
  });
  const started = ps.status === 0 ? ps.stdout.trim() : '';
  return started === '' ? undefined : started;
}

/** The start time of process `pid` as an opaque string, or undefined when no such process runs. */
export function processStart(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  return process.platform === 'linux' ? linuxStart(pid) : psStart(pid);
}

/** Whether the process that had `pid` and `started` (from `processStart`) still runs. */
export function stillRunning(pid: number, started: string): boolean {
  return processStart(pid) === started;
}

/** This process: pid, host and start time. */
export function thisProcess(): { readonly pid: number; readonly host: string; readonly started: string } {
  // A process's own start time never changes: read once (a queue worker asks for it every trial).
  ownStart ??= processStart(process.pid) ?? '';
  return { pid: process.pid, host: hostname(), started: ownStart };
}

let ownStart: string | undefined;

/**
 * Whether a process with this pid exists now (signal 0 checks without sending; EPERM: it exists
 * but belongs to someone else). Says nothing of which process it is: see `stillRunning`.
 */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
