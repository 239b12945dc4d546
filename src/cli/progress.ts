import type { RunProgress } from '../runner/events.ts';
import type { CliIO } from './io.ts';

/**
 * Run progress on stderr: a live bar (done/total, pass/fail/error, ETA and the trials running) on
 * a TTY, drawn from the first trial's start; otherwise a plain line about every 5% so CI logs stay
 * short. The run's header (with the experiment id) comes first either way.
 */
export class ProgressDisplay {
  private lastStep = -1;
  private drawn = false;
  private last: RunProgress | undefined;
  /** Trials in flight, by label (`task` or `task#epoch`), in the order they started. */
  private readonly running = new Map<string, number>();

  constructor(
    private readonly io: CliIO,
    private readonly live: boolean,
  ) {}

  /** The run's first line (suite, harness, experiment id), printed before any trial ends. */
  header(text: string): void {
    this.message(text);
  }

  trialStarted(label: string): void {
    this.running.set(label, (this.running.get(label) ?? 0) + 1);
    // A live bar shows what is running from the first second, not after the first trial ends.
    if (this.live) this.draw(this.last);
  }

  trialEnded(label: string): void {
    const left = (this.running.get(label) ?? 1) - 1;
    if (left > 0) this.running.set(label, left);
    else this.running.delete(label);
  }

  update(p: RunProgress): void {
    this.last = p;
    if (this.live) {
      this.draw(p);
      return;
    }
    const step = p.total === 0 ? 20 : Math.floor((p.done / p.total) * 20);
    if (step === this.lastStep) return;
    this.lastStep = step;
    this.io.stderr.write(`${describe(p, [...this.running.keys()])}\n`);
  }

  private draw(p: RunProgress | undefined): void {
    const columns = (this.io.stderr as { columns?: number }).columns ?? 80;
    const text =
      p === undefined ? describeRunning([...this.running.keys()]) : describe(p, [...this.running.keys()]);
    const width = Math.max(10, Math.min(30, columns - text.length - 4));
    const filled = p === undefined || p.total === 0 ? 0 : Math.round((p.done / p.total) * width);
    // One terminal line: a wrapped line cannot be redrawn in place.
    const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${text}`.slice(
      0,
      Math.max(20, columns - 1),
    );
    this.io.stderr.write(`\r\u001b[2K${line}`);
    this.drawn = true;
  }

  /** Ends the live line so later output starts on a fresh one. */
  finish(): void {
    if (this.live && this.drawn) this.io.stderr.write('\n');
    this.drawn = false;
  }

  message(text: string): void {
    this.finish();
    this.io.stderr.write(`${text}\n`);
  }
}

const SHOWN_RUNNING = 3;

/** `running: a, b, c +2 more` (names cut to 24 characters), or '' when nothing runs. */
export function describeRunning(running: readonly string[]): string {
  if (running.length === 0) return '';
  const names = running.slice(0, SHOWN_RUNNING).map((n) => (n.length > 24 ? `${n.slice(0, 23)}…` : n));
  const more = running.length > SHOWN_RUNNING ? ` +${running.length - SHOWN_RUNNING} more` : '';
  return `running: ${names.join(', ')}${more}`;
}

export function describe(p: RunProgress, running: readonly string[] = []): string {
  const eta =
    p.done === 0 || p.done >= p.total
      ? ''
      : ` eta ${formatSeconds((p.elapsed / p.done) * (p.total - p.done))}`;
  const pending = p.pending > 0 ? ` ${p.pending} pending` : '';
  const now = p.done >= p.total ? '' : describeRunning(running);
  return `${p.done}/${p.total} trials  ${p.passed} pass ${p.failed} fail ${p.errored} error${pending}  ${formatSeconds(p.elapsed)}${eta}${now === '' ? '' : `  ${now}`}`;
}

export function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${Math.round(s - m * 60)
    .toString()
    .padStart(2, '0')}s`;
}
