import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../../src/cli/io.ts';
import { describe as describeProgress, formatSeconds, ProgressDisplay } from '../../../src/cli/progress.ts';

function captureIO(isTTY: boolean): { io: CliIO; text: () => string } {
  let out = '';
  const stderr = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        out += String(chunk);
        done();
      },
    }),
    { isTTY, columns: 100 },
  );
  const stdout = new Writable({ write: (_c, _e, done) => done() });
  return { io: { stdout, stderr, env: {}, cwd: '/', debug: false }, text: () => out };
}

const at = (done: number, total = 100) => ({
  total,
  done,
  passed: done,
  failed: 0,
  errored: 0,
  pending: 0,
  elapsed: done / 10,
});

describe('ProgressDisplay', () => {
  it('draws one live bar on a terminal, redrawn in place, with counts and an ETA', () => {
    const { io, text } = captureIO(true);
    const progress = new ProgressDisplay(io, true);
    progress.update(at(25));
    progress.update(at(50));
    progress.finish();
    const written = text();
    expect(written.split('\r\u001b[2K')).toHaveLength(3); // two redraws of the same line
    expect(written).toMatch(/\[#{15}-{15}\] 50\/100 trials {2}50 pass 0 fail 0 error {2}5\.0s eta 5\.0s\n$/);
  });

  it('prints a plain line about every 5% when not on a terminal', () => {
    const { io, text } = captureIO(false);
    const progress = new ProgressDisplay(io, false);
    for (let done = 1; done <= 100; done++) progress.update(at(done));
    const lines = text().trimEnd().split('\n');
    expect(lines).toHaveLength(21); // the first trial, then every 5% up to 100%
    expect(lines.at(-1)).toBe('100/100 trials  100 pass 0 fail 0 error  10.0s');
    expect(text()).not.toContain('\r');
  });

  it('on a terminal, draws the running trials as soon as they start, before any ends', () => {
    const { io, text } = captureIO(true);
    const progress = new ProgressDisplay(io, true);
    progress.header('suite × h@1  (exp-1): 5 trials to run');
    for (const name of ['alpha', 'beta', 'gamma', 'delta']) progress.trialStarted(name);
    expect(text().split('\n')[0]).toBe('suite × h@1  (exp-1): 5 trials to run');
    expect(text()).toMatch(/\r\u001b\[2K\[-+\] running: alpha, beta, gamma \+1 more$/);
    progress.trialEnded('alpha');
    progress.update(at(1, 5));
    expect(text()).toMatch(/1\/5 trials .* {2}running: beta, gamma, delta$/);
    progress.finish();
  });

  it('names the running trials in the plain lines too, and never on the last one', () => {
    const { io, text } = captureIO(false);
    const progress = new ProgressDisplay(io, false);
    progress.trialStarted('a');
    progress.trialStarted('b');
    progress.trialEnded('a');
    progress.update(at(1, 2));
    progress.trialEnded('b');
    progress.update(at(2, 2));
    expect(text().trimEnd().split('\n')).toEqual([
      '1/2 trials  1 pass 0 fail 0 error  0.1s eta 0.1s  running: b',
      '2/2 trials  2 pass 0 fail 0 error  0.2s',
    ]);
  });

  it('formats durations and shows pending trials only when there are some', () => {
    expect(formatSeconds(5)).toBe('5.0s');
    expect(formatSeconds(125)).toBe('2m05s');
    expect(formatSeconds(Number.NaN)).toBe('?');
    expect(describeProgress({ ...at(3, 4), pending: 1 })).toContain('1 pending');
    expect(describeProgress(at(3, 4))).not.toContain('pending');
  });
});
