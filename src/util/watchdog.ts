import { type ChildProcess, spawn } from 'node:child_process';
import { PROCESS_TAG_ENV } from './tagged-processes.ts';

/**
 * A SIGKILLed HarnessEval cannot end what it started, and Node offers no PR_SET_PDEATHSIG. So the
 * first time a run starts a process group, it also starts this watchdog: a small Node process in
 * its own session (Ctrl-C in the terminal does not reach it) that reads the groups to guard from
 * a pipe. The pipe's only writer is HarnessEval; when HarnessEval dies, however it dies, the
 * kernel closes it and the watchdog reads end-of-file. It then ends every group still listed
 * (SIGTERM, SIGKILL a second later) and every process carrying one of this HarnessEval's process
 * tags (on Linux), and exits. After a normal exit the list is empty and it only sweeps the tags.
 *
 * Protocol, one line each: `+PGID` guard a group, `-PGID` it has ended.
 */
const WATCHDOG_SOURCE = `
const { readdirSync, readFileSync } = require('node:fs');
const prefix = Buffer.from(process.argv[1] + '=' + process.argv[2] + '.');
const groups = new Set();
for (const s of ['SIGINT', 'SIGHUP', 'SIGTERM', 'SIGPIPE']) process.on(s, () => {});
const signal = (pgid, sig) => { try { process.kill(-pgid, sig); } catch {} };
function sweep() {
  let names = [];
  try { names = readdirSync('/proc'); } catch { return; }
  for (const name of names) {
    if (!/^[0-9]+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const env = readFileSync('/proc/' + name + '/environ');
      const at = env.indexOf(prefix);
      if (at === 0 || (at > 0 && env[at - 1] === 0)) process.kill(Number(name), 'SIGKILL');
    } catch {}
  }
}
let finished = false;
function finish() {
  if (finished) return;
  finished = true;
  for (const pgid of groups) signal(pgid, 'SIGTERM');
  setTimeout(() => {
    for (const pgid of groups) signal(pgid, 'SIGKILL');
    sweep();
    process.exit(0);
  }, groups.size > 0 ? 1000 : 0);
}
let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  const lines = buffered.split('\\n');
  buffered = lines.pop();
  for (const line of lines) {
    const pgid = Number(line.slice(1));
    if (!Number.isInteger(pgid) || pgid <= 1) continue;
    if (line[0] === '+') groups.add(pgid);
    else if (line[0] === '-') groups.delete(pgid);
  }
});
process.stdin.on('end', finish);
process.stdin.on('error', finish);
`;

let watchdog: ChildProcess | null | undefined;

function start(token: string): ChildProcess | null {
  if (process.platform === 'win32') return null;
  try {
    const child = spawn(process.execPath, ['-e', WATCHDOG_SOURCE, PROCESS_TAG_ENV, token], {
      detached: true,
      shell: false,
      // Its own environment carries no process tag, so its sweep never matches itself.
      env: { PATH: process.env['PATH'] ?? '' },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.on('error', () => {
      watchdog = null;
    });
    child.stdin?.on('error', () => {});
    child.unref();
    // The pipe must not keep HarnessEval alive either.
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    return child;
  } catch {
    return null;
  }
}

/** Tells the watchdog to guard (`+`) or release (`-`) a process group; starts it on first use. */
export function tellWatchdog(token: string, change: '+' | '-', pgid: number): void {
  if (watchdog === undefined) watchdog = start(token);
  if (watchdog === null || watchdog.stdin === null || !watchdog.stdin.writable) return;
  watchdog.stdin.write(`${change}${pgid}\n`);
}

/** The watchdog's pid, for tests. */
export function watchdogPid(): number | undefined {
  return watchdog?.pid ?? undefined;
}
