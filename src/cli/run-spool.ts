import { closeSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Experiment } from '../core/experiment.ts';
import type { RunRecord } from '../core/run-record.ts';
import { elementPiece, recordElement } from '../reporters/json.ts';
import { type RunFold, RunTally } from '../reporters/run-fold.ts';
import type { TrialGlance } from '../reporters/types.ts';
import { InOrder } from '../runner/in-order.ts';
import { pidExists } from '../util/process-identity.ts';
import { glanceOf, scrubber } from './report-pages.ts';

/**
 * Pieces of the json section are gathered up to this many characters before a write. Small: what
 * waits for a write survives young-generation collections and is promoted, and with 1 MB a
 * 10,000-trial run with -o peaked at 240-248 MB instead of 198-214.
 */
const FLUSH_AT = 1 << 16;
/**
 * At most this many characters of rendered records wait for a trial planned before them. Past it
 * (a slow trial among many with large traces) the json spool is dropped and the report reads the
 * store as before: memory stays bounded whatever a harness writes.
 */
const WAITING_LIMIT = 32 << 20;

/** What the spool keeps of a finished trial until the trials planned before it are settled. */
interface Finished {
  readonly task_id: string;
  readonly epoch: number;
  readonly glance: TrialGlance;
  /** The record as a json array element; absent without a json spool. */
  readonly element?: string;
}

/** The json report's records, rendered as the trials finished: a file of `count` `elementPiece`s. */
export interface SpooledRecords {
  readonly path: string;
  readonly count: number;
}

/**
 * What the reports of `harnesseval run` read of every trial, made while the trials run instead of
 * in passes over the store after the last one: the fold of their glances (the console, JUnit and
 * Markdown summaries) and, for a json report, its records rendered into a temporary file. Trials
 * finish in any order; an `InOrder` hands them on in plan order, the order the store reads them
 * in, so what the reports write is what a pass over the store would write (a test holds the two
 * equal). Only a fresh run whose plan is every task times every epoch is spooled: a resume's kept
 * trials are in the store, not here. The reports use the spool only when it holds as many trials as
 * the store (`count`); otherwise they read the store as before. The records' file is a hidden file
 * beside the json report (the disk the user chose for a file that size; a temporary folder may be
 * memory), removed at the end; one a killed run left is removed by the next run writing that
 * report. A spool that cannot write (a full disk) is dropped, never the run.
 */
export class RunSpool {
  readonly #order: InOrder<Finished>;
  readonly #tally: RunTally;
  readonly #scrub: ReturnType<typeof scrubber>;
  #json: Spool | undefined;
  #count = 0;
  #unreadable = false;
  /** Characters of rendered records waiting in the order. */
  #waiting = 0;

  private constructor(experiment: Experiment, env: NodeJS.ProcessEnv, json: string | undefined) {
    const tasks = experiment.suite.tasks.map((t) => t.id);
    const epochs = experiment.settings.epochs;
    this.#tally = new RunTally(experiment);
    this.#scrub = scrubber(env);
    this.#order = new InOrder(tasks, epochs, (record) => this.#take(record));
    for (const task of tasks) for (let epoch = 0; epoch < epochs; epoch++) this.#order.expect(task, epoch);
    if (json !== undefined) this.#json = openSpool(json);
  }

  /**
   * A spool for a run that is starting, or undefined when its trials are not the whole plan (a
   * resume, a retry of errors, a filtered plan).
   */
  static start(
    experiment: Experiment,
    run: { readonly trials: number; readonly resumed: number },
    /** `json`: where a json report goes, when the run writes one. */
    options: { readonly env: NodeJS.ProcessEnv; readonly json?: string | undefined },
  ): RunSpool | undefined {
    const planned = experiment.suite.tasks.length * experiment.settings.epochs;
    if (run.resumed !== 0 || run.trials !== planned || planned === 0) return undefined;
    return new RunSpool(experiment, options.env, options.json);
  }

  /** A trial the store holds now (its `trial_end` record). */
  add(raw: RunRecord): void {
    if (this.#unreadable) return;
    try {
      // As the store's read gives it back: the secret-free text, parsed.
      const record = this.#scrub(raw, (v) => v as RunRecord);
      const element = this.#json === undefined ? undefined : recordElement(record);
      // Counted before the put: the put may hand it on at once (`#take` subtracts it).
      this.#waiting += element?.length ?? 0;
      this.#order.put({
        task_id: record.task_id,
        epoch: record.epoch,
        glance: glanceOf(record),
        ...(element === undefined ? {} : { element }),
      });
    } catch {
      // A trial outside the plan, or text the scrub broke: the spool cannot say what the store holds.
      this.#unreadable = true;
      return;
    }
    if (this.#waiting > WAITING_LIMIT) this.dispose();
  }

  /** The run is over: what waits for a trial that never finished goes on. */
  finish(): void {
    this.#order.finish();
    this.#flush();
    if (this.#json !== undefined) closeOnce(this.#json);
  }

  /** The fold of the spooled trials, or undefined when the spool is not the store's whole run. */
  folded(stored: number): RunFold | undefined {
    return this.#unreadable || stored !== this.#count ? undefined : this.#tally.result();
  }

  /** The json report's records, or undefined when there are none to trust. */
  json(stored: number): SpooledRecords | undefined {
    if (this.#json === undefined || this.#unreadable || stored !== this.#count) return undefined;
    return { path: this.#json.path, count: this.#count };
  }

  /** Drops the json spool and removes its file (a file that cannot be removed is left, never an error). */
  dispose(): void {
    const json = this.#json;
    if (json === undefined) return;
    this.#json = undefined;
    closeOnce(json);
    try {
      rmSync(json.path, { force: true });
    } catch {
      // A hidden temporary file left beside the report; the run and its reports are unaffected.
    }
  }

  #take(finished: Finished): void {
    this.#tally.add(finished.glance);
    const { element } = finished;
    if (element !== undefined) this.#waiting -= element.length;
    const json = this.#json;
    if (json !== undefined && element !== undefined) {
      const piece = elementPiece(element, this.#count);
      json.pending.push(piece);
      json.size += piece.length;
      if (json.size >= FLUSH_AT) this.#flush();
    }
    this.#count++;
  }

  #flush(): void {
    const json = this.#json;
    if (json === undefined || json.size === 0 || json.fd === undefined) return;
    const text = json.pending.join('');
    json.pending = [];
    json.size = 0;
    try {
      writeSync(json.fd, text, null, 'utf8');
    } catch {
      this.dispose();
    }
  }
}

/** The json spool's file; `fd` is undefined once closed (an fd is never closed twice: its number may be reused). */
interface Spool {
  readonly path: string;
  fd: number | undefined;
  pending: string[];
  size: number;
}

/** The records' file beside `destination`; undefined when it cannot be made (the report says why later). */
function openSpool(destination: string): Spool | undefined {
  const folder = dirname(destination);
  const path = join(folder, spoolName(basename(destination), process.pid));
  try {
    mkdirSync(folder, { recursive: true });
    removeStaleSpools(folder, basename(destination));
    return { path, fd: openSync(path, 'w', 0o600), pending: [], size: 0 };
  } catch {
    return undefined;
  }
}

const spoolName = (report: string, pid: number) => `.${report}.${pid}.records.tmp`;

/**
 * Removes the spools of `report` that runs killed before their end left (SIGKILL, a lost machine):
 * those whose process is gone. A live process's spool is its own business (another run writing
 * the same report).
 */
function removeStaleSpools(folder: string, report: string): void {
  const prefix = `.${report}.`;
  for (const name of readdirSync(folder)) {
    if (!name.startsWith(prefix) || !name.endsWith('.records.tmp')) continue;
    const pid = Number(name.slice(prefix.length, -'.records.tmp'.length));
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || spoolName(report, pid) !== name)
      continue;
    if (pidExists(pid)) continue;
    try {
      rmSync(join(folder, name), { force: true });
    } catch {
      // Left for the next run; nothing depends on it.
    }
  }
}

function closeOnce(spool: Spool): void {
  if (spool.fd === undefined) return;
  const { fd } = spool;
  spool.fd = undefined;
  try {
    closeSync(fd);
  } catch {
    // Nothing is lost: a failed close leaves the spool to be dropped by its count or its reader.
  }
}
