import { describe, expect, it } from 'vitest';
import { createConsoleReporter, renderConsole } from '../../../src/reporters/console.ts';
import { displayWidth } from '../../../src/util/terminal-text.ts';
import { evaluation, experiment, metric, mixedExperiment, NASTY, record } from './experiment-factory.ts';

const ESC = '\u001b';
// Colour codes the reporter itself emits: SGR only.
const SGR = /\u001b\[\d+m/g;

describe('console reporter', () => {
  it('shows a row per trial with outcome, score, latency, cost and why it failed', () => {
    const text = renderConsole(mixedExperiment(), { width: 120 });
    const lines = text.split('\n');
    const row = (id: string) => lines.find((l) => l.startsWith(id)) ?? '';
    expect(lines.some((l) => /^TASK\s+OUTCOME\s+SCORE\s+AGENT LATENCY\s+COST\s+DETAILS$/.test(l))).toBe(true);
    expect(row('greet-alice')).toMatch(/PASS\s+1\.00\s+1\.25s\s+\$0\.0012$/);
    expect(row('greet, "bob"')).toMatch(/FAIL\s+0\.00\s+2s\s+-\s+contains: line one\\nline two/);
    // No agent latency was measured: the column says so instead of showing the trial's 1.5 s duration.
    expect(row('tool-<script>')).toMatch(/ERROR\s+-\s+-\s/);
    expect(row('needs-review')).toContain('PENDING');
    expect(row('needs-review')).toContain('awaiting grades for rubric-clarity');
  });

  it('prints metrics with value, standard error, interval and n', () => {
    const text = renderConsole(
      mixedExperiment({ metrics: [metric({ name: 'success_rate', stderr: 0.062 })] }),
    );
    expect(text).toMatch(/success_rate\s+80\.0%\s+±6\.2%\s+\[67\.6%, 92\.4%\]\s+n=25/);
  });

  it('shows n/a for a metric without a value, never NaN', () => {
    const text = renderConsole(mixedExperiment());
    expect(text).toMatch(/cost\s+n\/a\s+n=0/);
    expect(text).not.toContain('NaN');
  });

  it('lists threshold violations and ends with a FAIL verdict', () => {
    const text = renderConsole(mixedExperiment());
    expect(text).toContain('Threshold violations');
    expect(text).toContain('success_rate 80.0% is below the minimum 90.0%');
    expect(text.trimEnd().split('\n').at(-1)).toBe(
      'FAIL  1/6 passed, 3 failed, 1 error, 1 pending; 1 threshold violation',
    );
  });

  it('gives a PASS verdict when every gate holds', () => {
    const text = renderConsole(experiment({ records: [record({ task_id: 'a', outcome: 'pass' })] }));
    expect(text.trimEnd().split('\n').at(-1)).toBe('PASS  1/1 passed; all thresholds met');
  });

  it('says when a run was interrupted and how many trials did not run', () => {
    const e = experiment({
      status: 'interrupted',
      suite: { id: 's', tasks: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] },
      records: [record({ task_id: 'a', outcome: 'pass' })],
    });
    expect(renderConsole(e).trimEnd().split('\n').at(-1)).toBe(
      'INTERRUPTED  1/1 passed, 2 not run; run interrupted',
    );
  });

  it('handles an experiment without trials or metrics', () => {
    const text = renderConsole(experiment());
    expect(text).toContain('No trials recorded.');
    expect(text).not.toContain('Metrics');
  });

  it('shows the epoch column only when there are several epochs', () => {
    expect(renderConsole(mixedExperiment())).not.toContain('EPOCH');
    const e = experiment({
      settings: { epochs: 2 },
      records: [
        record({ task_id: 'a', outcome: 'pass', epoch: 0 }),
        record({ task_id: 'a', outcome: 'fail', epoch: 1 }),
      ],
    });
    const text = renderConsole(e);
    expect(text).toMatch(/TASK\s+EPOCH\s+OUTCOME/);
    expect(text).toMatch(/^a\s+1\s+FAIL/m);
  });

  it.each([40, 60, 80, 100, 160])('never writes a line wider than the terminal (%i columns)', (width) => {
    const e = mixedExperiment({
      records: [
        ...mixedExperiment().records,
        record({
          task_id: `${'very-long-task-id-'.repeat(10)}${NASTY.emoji}`,
          outcome: 'error',
          error: NASTY.big,
        }),
        record({
          task_id: '日本語のタスク',
          outcome: 'fail',
          evaluations: [evaluation({ passed: false, score: 0, explanation: NASTY.emoji.repeat(20) })],
        }),
      ],
    });
    for (const line of renderConsole(e, { width }).split('\n')) {
      expect(displayWidth(line), line).toBeLessThanOrEqual(width);
    }
  });

  it('escapes control characters and ANSI sequences from agent output (no raw ESC without colour)', () => {
    const text = renderConsole(mixedExperiment(), { width: 400 });
    expect(text).not.toContain(ESC);
    expect(text).not.toContain('\u009b');
    expect(text).not.toContain('\u202e');
    expect(text).toContain('\\x1b[31mRED');
  });

  it('with colour, the only escape sequences are its own SGR codes', () => {
    const text = renderConsole(mixedExperiment(), { width: 400, color: true });
    expect(text).toContain(`${ESC}[32m`);
    expect(text).toContain(`${ESC}[31m`);
    const withoutOwn = text.replace(SGR, '');
    expect(withoutOwn).not.toContain(ESC);
    // Stripping the colour gives exactly the plain rendering: colour never changes the layout.
    expect(withoutOwn).toBe(renderConsole(mixedExperiment(), { width: 400 }));
  });

  it('escapes control characters in the task id, suite name and violation messages too', () => {
    const e = mixedExperiment({
      suite: { id: 's', name: `suite${ESC}]0;pwned${ESC}\\` },
      records: [record({ task_id: `task${ESC}[2J`, outcome: 'pass' })],
      violations: [{ metric: 'm', condition: 'missing', threshold: 1, actual: null, message: `bad${ESC}[H` }],
    });
    expect(renderConsole(e, { color: true }).replace(SGR, '')).not.toContain(ESC);
  });

  it('writes to a destination without colour, creating folders', async () => {
    const { mkdtemp, readFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'he-console-'));
    const destination = join(dir, 'a', 'b', 'report.txt');
    const text = await createConsoleReporter().report(mixedExperiment(), { destination, color: true });
    expect(text).not.toContain(ESC);
    expect(await readFile(destination, 'utf8')).toBe(text);
  });
});
