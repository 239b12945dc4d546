import { spawn } from 'node:child_process';
import { endEscapees, newProcessTag, tagEnv, trackChildGroup } from './child-groups.ts';

export interface CommandRun {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Bytes of combined stdout + stderr kept from the end. */
  readonly tailBytes?: number;
}

export interface CommandOutcome {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** Set when the command could not start (not found, not executable). */
  readonly spawnError?: string;
  readonly outputTail: string;
  readonly durationSeconds: number;
}

const KILL_GRACE_MS = 1000;

/** Signals the whole process group; the group may already be gone. */
function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: nothing left to kill.
  }
}

/**
 * Runs argv without a shell in its own process group. On timeout or abort the group gets SIGTERM,
 * then SIGKILL after a grace period; after any exit the group is SIGKILLed so that no child
 * outlives the command. Keeps only the last `tailBytes` of output, so a chatty command costs little memory.
 */
export function runCommand(run: CommandRun): Promise<CommandOutcome> {
  const started = performance.now();
  const limit = run.tailBytes ?? 4096;
  let tail = Buffer.alloc(0);
  const keep = (chunk: Buffer) => {
    tail = Buffer.concat([tail, chunk]);
    if (tail.length > limit) tail = tail.subarray(tail.length - limit);
  };
  return new Promise<CommandOutcome>((resolve) => {
    const [command, ...args] = run.argv;
    const tag = newProcessTag();
    const child = spawn(command ?? '', args, {
      cwd: run.cwd,
      env: { ...run.env, ...tagEnv(tag) },
      shell: false,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const untrack = child.pid === undefined ? () => {} : trackChildGroup(child.pid, tag);
    let timedOut = false;
    let aborted = false;
    let spawnError: string | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    const stop = () => {
      if (child.pid === undefined) return;
      killGroup(child.pid, 'SIGTERM');
      const pid = child.pid;
      graceTimer = setTimeout(() => killGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, run.timeoutMs);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    run.signal?.addEventListener('abort', onAbort, { once: true });
    if (run.signal?.aborted === true) onAbort();
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => {
      spawnError = error.message;
    });
    child.on('exit', () => {
      // Children left in the group (background jobs) would hold the pipes open and outlive us.
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      if (graceTimer !== undefined) clearTimeout(graceTimer);
      run.signal?.removeEventListener('abort', onAbort);
      const outcome: CommandOutcome = {
        exitCode,
        signal,
        timedOut,
        aborted,
        outputTail: tail.toString('utf8'),
        durationSeconds: (performance.now() - started) / 1000,
      };
      const done = () => {
        untrack();
        resolve(spawnError === undefined ? outcome : { ...outcome, spawnError });
      };
      // What the command started outside its group (`setsid`) goes too, found by its tag.
      void endEscapees(tag).then(done, done);
    });
  });
}
