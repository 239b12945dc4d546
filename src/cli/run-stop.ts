import { killAllChildGroups } from '../util/child-groups.ts';
import { EXIT } from './exit.ts';
import type { CliIO } from './io.ts';
import { shownStore } from './store-location.ts';

/** What `harnesseval run` was given, to print the command that continues it. */
export interface ResumeInputs {
  readonly file: string;
  readonly harness?: string | undefined;
  /** The store as given with --store, false for `--no-store`, absent for $HARNESSEVAL_STORE or the default. */
  readonly store?: string | false | undefined;
  /** Options given on the command line that the resumed run should keep (`-j`, `-o`, `--judge`, …). */
  readonly keep: readonly string[];
}

const quote = (arg: string) => (/^[\w./:@=-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`);

/**
 * The command that continues a run: its file, `--resume ID`, the harness and store, and the
 * options that shape its output. Epochs, filters, seed, timeout and retries are not repeated:
 * the experiment stores its plan and a resume runs exactly that.
 */
export function resumeCommand(inputs: ResumeInputs, id: string): string | undefined {
  if (inputs.store === false) return undefined;
  // `npx`: a project's harnesseval is in node_modules/.bin, not on PATH.
  const parts = ['npx', 'harnesseval', 'run', quote(inputs.file), '--resume', id];
  if (inputs.harness !== undefined) parts.push('--harness', quote(inputs.harness));
  // A store from $HARNESSEVAL_STORE is found again the same way; a URL's password is not printed.
  if (typeof inputs.store === 'string') parts.push('--store', quote(shownStore(inputs.store)));
  parts.push(...inputs.keep.map(quote));
  return parts.join(' ');
}

/** The end of a "stopped" line: how to continue, or why there is nothing to continue. */
export function continuation(inputs: ResumeInputs, id: string | undefined): string {
  if (inputs.store === false) return 'nothing was stored (--no-store), so there is nothing to resume';
  if (id === undefined) return 'the run had not started; nothing to resume';
  return `resume with: ${resumeCommand(inputs, id)}`;
}

/**
 * Ctrl-C and SIGTERM during `run`. The first stops scheduling and gives in-flight trials a few
 * seconds; the second kills every process group the run started (at once, synchronously) and
 * stops the run, which still marks the experiment interrupted and prints how to resume; a third,
 * or a signal while reports are written, exits at once after killing them again. The handlers
 * stay installed until the command returns, so no signal ever meets Node's default (exit 143,
 * no message, processes left running).
 */
export class RunSignals {
  readonly interrupt = new AbortController();
  readonly stopNow = new AbortController();
  #count = 0;
  #phase: 'running' | 'reporting' = 'running';
  #experimentId: string | undefined;
  readonly #handler = () => this.#onSignal();

  constructor(
    private readonly io: CliIO,
    private readonly inputs: ResumeInputs,
    private readonly say: (text: string) => void,
    /** Seconds in-flight trials get after the first signal (`run --grace`). */
    private readonly graceSeconds = 5,
  ) {}

  install(): void {
    process.on('SIGINT', this.#handler);
    process.on('SIGTERM', this.#handler);
  }

  uninstall(): void {
    process.off('SIGINT', this.#handler);
    process.off('SIGTERM', this.#handler);
  }

  set experimentId(id: string) {
    this.#experimentId = id;
  }

  /** From now on a signal means: stop writing reports and exit. */
  reporting(): void {
    this.#phase = 'reporting';
  }

  #onSignal(): void {
    this.#count++;
    if (this.#phase === 'reporting') {
      this.#exit('stopped while writing reports (the experiment is stored as it finished)');
      return;
    }
    if (this.#count === 1) {
      this.say(
        `harnesseval: interrupting — finishing in-flight trials (up to ${this.graceSeconds} s); press Ctrl-C again to stop now`,
      );
      this.interrupt.abort();
      return;
    }
    if (this.#count === 2) {
      const killed = killAllChildGroups();
      this.say(`harnesseval: stopping now${killed > 0 ? ` (ended ${killed} processes)` : ''}`);
      this.stopNow.abort();
      // Should the run not come back (a harness stuck in synchronous code), exit anyway.
      setTimeout(() => this.#exit('stopped'), 5000).unref();
      return;
    }
    this.#exit('stopped');
  }

  #exit(what: string): void {
    killAllChildGroups();
    this.io.stderr.write(`\nharnesseval: ${what}; ${continuation(this.inputs, this.#experimentId)}\n`);
    process.exit(EXIT.interrupted);
  }
}
