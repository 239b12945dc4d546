import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/run-cli.ts';

// What a person watching `harnesseval run` in a terminal or a CI log sees.

describe('run: console output', () => {
  it('a failed command criterion shows its first failing assertion, not the command line', async () => {
    const result = await cli([
      'run',
      'test/fixtures/console/task.yaml',
      '--harness',
      'test/fixtures/console/harness.yaml',
      '--no-store',
    ]);
    const row = result.stdout.split('\n').find((line) => /^fix-sum\s+[A-Z]+\s/.test(line));
    expect(row).toMatch(/FAIL\s+0\.00.*ac-01: adds small numbers: Expected values/);
    expect(row).not.toContain('command "node');
  });

  it('prints the header with the experiment id first, and names the trials still running', async () => {
    const result = await cli(['run', 'test/fixtures/console/progress.yaml', '--no-store', '-j', '2']);
    const id = /\((exp-[\w-]+)\)/.exec(result.stdout)?.[1];
    const [header, ...progress] = result.stderr.trim().split('\n');
    expect(header).toBe(`progress-demo × progress-demo@0.0.0  (${id}): 2 trials to run`);
    expect(progress[0]).toMatch(/^1\/2 trials {2}1 pass 0 fail 0 error .* {2}running: slow-one$/);
    expect(progress.at(-1)).toMatch(/^2\/2 trials {2}2 pass/);
    expect(progress.at(-1)).not.toContain('running');
    expect(result.status).toBe(0);
  });

  it('--no-progress prints neither', async () => {
    const result = await cli(['run', 'test/fixtures/console/progress.yaml', '--no-store', '--no-progress']);
    expect(result.stderr).toBe('');
  });
});

/** Every figure printed with a unit: `12.3%`, `0.00186s`, `$0.000156`. */
function figures(text: string, unit: 's' | '$' | '%'): string[] {
  const pattern =
    unit === '$' ? /\$(\d+(?:\.\d+)?)/g : unit === 's' ? /\b(\d+(?:\.\d+)?)s\b/g : /(\d+(?:\.\d+)?)%/g;
  return [...text.matchAll(pattern)].map((m) => m[1] ?? '');
}

const significantDigits = (figure: string) => figure.replace('.', '').replace(/^0+/, '').length;

describe('run and runs show: one precision rule per unit', () => {
  it('tiny equal costs and sub-millisecond latencies print without exponents or float noise', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'he-format-'));
    try {
      const store = join(dir, 'store.db');
      const run = await cli(['run', 'test/fixtures/console/priced.yaml', '--store', store, '--no-progress']);
      expect(run.status, run.stderr).toBe(0);
      const id = /stored experiment (exp-\S+)/.exec(run.stderr)?.[1] ?? '';
      const show = await cli(['runs', 'show', id, '--store', store]);
      expect(show.status, show.stderr).toBe(0);
      // Experiment ids (`…-0e92`) and the `95% CI` label are no figures.
      for (const text of [run.stdout, show.stdout].map((t) => t.replace(/exp-[\w-]+|95% CI/g, ''))) {
        // Never `±$7.2e-21`: no exponent anywhere, and a zero spread is a plain zero.
        expect(text).not.toMatch(/\d[eE][-+]?\d/);
        // Seconds and dollars below $1 carry at most three significant digits; rates one decimal.
        for (const s of figures(text, 's')) expect(significantDigits(s), `${s}s`).toBeLessThanOrEqual(3);
        for (const d of figures(text, '$')) expect(significantDigits(d), `$${d}`).toBeLessThanOrEqual(3);
        for (const p of figures(text, '%')) expect(p, `${p}%`).toMatch(/^\d+\.\d$/);
      }
      expect(run.stdout).toMatch(/^cost +\$0\.000156 +±\$0\.00 +\[\$0\.000156, \$0\.000156\] +n=5$/m);
      // runs show writes a rate's interval in the rate's own unit, not as bare fractions.
      expect(show.stdout).toMatch(/success_rate +100\.0% +95% CI \[\d+\.\d%, 100\.0%\] +n=5/);
      expect(show.stdout).not.toMatch(/CI \[0\.\d{3}, /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
