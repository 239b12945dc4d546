import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/**
 * Every process HarnessEval starts (a harness, an MCP server, a criterion's command) gets this
 * variable, and so does everything those processes start: children inherit their environment,
 * including the ones that leave the process group with `setsid`. On Linux `/proc/PID/environ`
 * shows a process's starting environment to its own user, so the tag finds escaped descendants
 * that no process group holds, without cgroups or privileges. (A process that clears its
 * environment before exec escapes the tag too; nothing short of a sandbox catches that.)
 */
export const PROCESS_TAG_ENV = 'HARNESSEVAL_PROCESS_TAG';

const canScan = process.platform === 'linux';

function carries(environ: Buffer, tag: string, prefix: boolean): boolean {
  const needle = `${PROCESS_TAG_ENV}=${tag}`;
  let at = environ.indexOf(needle);
  while (at !== -1) {
    const startsEntry = at === 0 || environ[at - 1] === 0;
    const end = environ[at + Buffer.byteLength(needle)];
    if (startsEntry && (prefix || end === 0 || end === undefined)) return true;
    at = environ.indexOf(needle, at + 1);
  }
  return false;
}

function isPid(name: string): boolean {
  return /^\d+$/.test(name) && Number(name) !== process.pid;
}

/** Pids of the processes carrying `tag` (or, with `prefix`, any tag starting with it). Synchronous: usable in a signal handler. */
export function taggedProcessesSync(tag: string, prefix = false): number[] {
  if (!canScan) return [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of names) {
    if (!isPid(name)) continue;
    try {
      if (carries(readFileSync(`/proc/${name}/environ`), tag, prefix)) found.push(Number(name));
    } catch {
      // gone, or another user's
    }
  }
  return found;
}

/** `taggedProcessesSync` without blocking the event loop for the scan. */
export async function taggedProcesses(tag: string, prefix = false): Promise<number[]> {
  if (!canScan) return [];
  let names: string[];
  try {
    names = (await readdir('/proc')).filter(isPid);
  } catch {
    return [];
  }
  const found: number[] = [];
  const BATCH = 64;
  for (let i = 0; i < names.length; i += BATCH) {
    await Promise.all(
      names.slice(i, i + BATCH).map(async (name) => {
        try {
          if (carries(await readFile(`/proc/${name}/environ`), tag, prefix)) found.push(Number(name));
        } catch {
          // gone, or another user's
        }
      }),
    );
  }
  return found;
}

/** SIGKILLs the given pids (each may be gone already); returns how many were signalled. */
export function killPids(pids: readonly number[]): number {
  let killed = 0;
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
      killed++;
    } catch {
      // ESRCH: gone. EPERM: not ours.
    }
  }
  return killed;
}

/** Ends every process that carries `tag`: what a finished harness left behind outside its group. */
export async function endTagged(tag: string, prefix = false): Promise<number> {
  return killPids(await taggedProcesses(tag, prefix));
}
