import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { processStart } from './process-identity.ts';
import { endTagged, killPids, PROCESS_TAG_ENV, taggedProcessesSync } from './tagged-processes.ts';
import { tellWatchdog } from './watchdog.ts';

/**
 * The process groups this HarnessEval has started and not yet seen end: harnesses, MCP servers,
 * criterion commands (each spawned `detached`, so it leads its own group). Three things use the
 * list: a second Ctrl-C kills every group at once before exiting; a watchdog process kills them
 * if HarnessEval is SIGKILLed (watchdog.ts); and a run records them in its store, so that the
 * next run or `runs cleanup` can end what a killed run left (runner/child-records.ts).
 */
export interface ChildGroup {
  readonly pid: number;
  /** The group's id: the leader's pid, since each child is spawned as a group leader. */
  readonly pgid: number;
  /** The leader's start time (process-identity.ts): a later pid with the same number is not it. */
  readonly started: string;
  /** Its PROCESS_TAG_ENV value, inherited by everything it starts. */
  readonly tag: string;
}

export interface ChildGroupListener {
  started(group: ChildGroup): void;
  ended(group: ChildGroup): void;
}

/** Random per HarnessEval process: every tag it hands out starts with it. */
const token = randomBytes(6).toString('hex');
let sequence = 0;
const live = new Map<number, ChildGroup>();
const listeners = new AsyncLocalStorage<ChildGroupListener>();

/** A fresh tag for one process to start; put it in the child's environment as PROCESS_TAG_ENV. */
export function newProcessTag(): string {
  sequence += 1;
  return `${token}.${sequence}`;
}

/** The environment entry that tags a child. */
export function tagEnv(tag: string): Record<string, string> {
  return { [PROCESS_TAG_ENV]: tag };
}

/** What every tag of this process starts with (for the watchdog and `runs cleanup`). */
export function processTagPrefix(): string {
  return `${token}.`;
}

/**
 * Runs `fn` so that every group started within it (however deep in async calls) is reported to
 * `listener`: the runner records the groups of its own run, even when several runs share a process.
 */
export function withChildGroupListener<T>(listener: ChildGroupListener, fn: () => T): T {
  // The first run needs no AsyncLocalStorage: a group started where no store is set is its own.
  // (On Node 20, the first `run` of an AsyncLocalStorage turns on promise hooks for the whole
  // process: ~10% of the CPU of a trial of an in-process harness.) So do more runs with the same
  // listener started outside any other run (a queue worker's concurrent trials of one experiment).
  // A run started while another listener's is active, or inside one, gets a store, which its
  // groups find first.
  const shared = sole === listener && listeners.getStore() === undefined;
  if (sole !== undefined && !shared) return listeners.run(listener, fn);
  sole = listener;
  soleRuns += 1;
  const done = () => {
    soleRuns -= 1;
    if (soleRuns === 0) sole = undefined;
  };
  try {
    const result = fn();
    if (!(result instanceof Promise)) {
      done();
      return result;
    }
    return result.finally(done) as T;
  } catch (error) {
    done();
    throw error;
  }
}

/** The listener of the runs started while no other was active (see withChildGroupListener). */
let sole: ChildGroupListener | undefined;
/** How many of those runs are active: the listener stays `sole` until the last one ends. */
let soleRuns = 0;

/** Records a group the caller just spawned (`pid` leads it); the returned function marks it ended. */
export function trackChildGroup(pid: number, tag: string): () => void {
  const group: ChildGroup = { pid, pgid: pid, started: processStart(pid) ?? '', tag };
  const listener = listeners.getStore() ?? sole;
  live.set(pid, group);
  tellWatchdog(token, '+', pid);
  listener?.started(group);
  return () => {
    if (live.get(pid) !== group) return;
    live.delete(pid);
    tellWatchdog(token, '-', pid);
    listener?.ended(group);
  };
}

/** After a group has ended: SIGKILL what its members started outside it (`setsid`), by tag. */
export function endEscapees(tag: string): Promise<number> {
  return endTagged(tag);
}

/**
 * SIGKILLs every live group and every process carrying one of this process's tags, at once.
 * Synchronous, so that a signal handler can call it just before `process.exit`.
 */
export function killAllChildGroups(): number {
  let killed = 0;
  for (const group of live.values()) {
    try {
      process.kill(-group.pgid, 'SIGKILL');
      killed++;
    } catch {
      // already gone
    }
  }
  return killed + killPids(taggedProcessesSync(processTagPrefix(), true));
}

/** The groups alive now (tests and diagnostics). */
export function liveChildGroups(): ChildGroup[] {
  return [...live.values()];
}
