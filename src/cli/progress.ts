import type { RunProgress } from '../runner/events.ts';
import type { CliIO } from './io.ts';

/**
 * Run progress on stderr: a live bar (done/total, pass/fail/error, ETA) on a TTY, otherwise a
 * plain line about every 5% so CI logs stay short.
 */
export class ProgressDisplay {
  private lastStep = -1;
  private drawn = false;

  constructor(
    private readonly io: CliIO,
    private readonly live: boolean,
  ) {}

  update(p: RunProgress): void {
    const line = describe(p);
    if (this.live) {
      const width = Math.max(
        10,
        Math.min(30, ((this.io.stderr as { columns?: number }).columns ?? 80) - line.length - 4),
      );
      const filled = p.total === 0 ? width : Math.round((p.done / p.total) * width);
      this.io.stderr.write(`\r\u001b[2K[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${line}`);
      this.drawn = true;
      return;
    }
    const step = p.total === 0 ? 20 : Math.floor((p.done / p.total) * 20);
    if (step === this.lastStep) return;
    this.lastStep = step;
    this.io.stderr.write(`${line}\n`);
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

export function describe(p: RunProgress): string {
  const eta =
    p.done === 0 || p.done >= p.total
      ? ''
      : ` eta ${formatSeconds((p.elapsed / p.done) * (p.total - p.done))}`;
  const pending = p.pending > 0 ? ` ${p.pending} pending` : '';
  return `${p.done}/${p.total} trials  ${p.passed} pass ${p.failed} fail ${p.errored} error${pending}  ${formatSeconds(p.elapsed)}${eta}`;
}

export function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s < 60) return `${s.toFixed(1)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${Math.round(s - m * 60)
    .toString()
    .padStart(2, '0')}s`;
}
