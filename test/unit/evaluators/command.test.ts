import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentOutput } from '../../../src/core/agent-output.ts';
import { createEvaluator } from '../../../src/evaluators/registry.ts';
import { errored, judge, makeTask } from './helpers.ts';

const node = process.execPath;
let workspace: string;

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'harnesseval-command-'));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    expect(error).toMatchObject({ code: 'ESRCH' });
    return false;
  }
}

async function waitForFile(path: string): Promise<string> {
  for (let i = 0; i < 200 && !existsSync(path); i++) await new Promise((r) => setTimeout(r, 25));
  return readFile(path, 'utf8');
}

describe('command', () => {
  it('passes on exit 0, runs in the workspace, and keeps the output tail', async () => {
    const script = "require('fs').writeFileSync('marker', 'x'); console.log('all tests passed')";
    const r = await judge('command', { command: [node, '-e', script] }, { workspace });
    expect(r).toMatchObject({ score: 1, passed: true });
    expect(r.details['exit_code']).toBe(0);
    expect(r.details['output_tail']).toContain('all tests passed');
    expect(existsSync(join(workspace, 'marker'))).toBe(true);
  });

  it('fails on a non-zero exit with stderr in the tail', async () => {
    const r = await judge(
      'command',
      { command: [node, '-e', "console.error('2 tests failed'); process.exit(3)"] },
      { workspace },
    );
    expect(r).toMatchObject({ score: 0, passed: false });
    expect(r.explanation).toContain('exited with status 3');
    expect(r.details['output_tail']).toContain('2 tests failed');
  });

  it('splits a string command on whitespace with quotes, never through a shell', async () => {
    const ok = await judge(
      'command',
      { command: `"${node}" -e "console.log('a b') || process.exit(0)"` },
      { workspace },
    );
    expect(ok.passed).toBe(true);
    expect(ok.details['output_tail']).toContain('a b');
    // `&&` and `;` are plain arguments, so nothing after them runs.
    const r = await judge(
      'command',
      { command: `"${node}" -e "process.exit(0)" ; touch pwned` },
      { workspace },
    );
    expect(r.passed).toBe(true);
    expect(existsSync(join(workspace, 'pwned'))).toBe(false);
  });

  it('keeps only the last 4 KB of output', async () => {
    const r = await judge(
      'command',
      { command: [node, '-e', "process.stdout.write('x'.repeat(100000)); process.stderr.write('END')"] },
      { workspace },
    );
    const tail = String(r.details['output_tail']);
    expect(tail.length).toBeLessThanOrEqual(4096);
    expect(tail.endsWith('END')).toBe(true);
  });

  it('passes the environment it was created with', async () => {
    const evaluator = await createEvaluator(
      {
        name: 'command',
        options: { command: [node, '-e', 'process.exit(process.env.HE_FLAG === "on" ? 0 : 1)'] },
        negate: false,
      },
      { baseDir: workspace, env: { HE_FLAG: 'on' } },
    );
    const r = await evaluator.evaluate({
      task: makeTask(),
      output: agentOutput({ output: '' }),
      signal: new AbortController().signal,
      workspace,
    });
    expect(r.passed).toBe(true);
  });

  it('kills a hung command and its children at the timeout, leaving no process behind', async () => {
    const child = 'setInterval(() => {}, 1000)';
    const script = `
      const { spawn } = require('child_process');
      const c = spawn(process.execPath, ['-e', ${JSON.stringify(child)}], { stdio: 'ignore' });
      require('fs').writeFileSync('pids', process.pid + ' ' + c.pid);
      setInterval(() => {}, 1000);`;
    const r = await judge('command', { command: [node, '-e', script], timeout_seconds: 1 }, { workspace });
    expect(r).toMatchObject({ score: 0, passed: false });
    expect(r.explanation).toContain('timed out after 1 s');
    const pids = (await waitForFile(join(workspace, 'pids'))).split(' ').map(Number);
    expect(pids).toHaveLength(2);
    for (let i = 0; i < 100 && pids.some(isAlive); i++) await new Promise((res) => setTimeout(res, 20));
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
  });

  it('stops the command when the trial is aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const r = await judge(
      'command',
      { command: [node, '-e', 'setInterval(() => {}, 1000)'], timeout_seconds: 60 },
      { workspace, signal: controller.signal },
    );
    expect(r).toMatchObject({ score: 0, passed: false });
    expect(r.error).toContain('aborted');
  });

  it('cannot judge without a workspace or when the command does not exist', async () => {
    const none = await judge('command', { command: ['true'] });
    expect(none.error).toContain('needs a workspace');
    const missing = await judge('command', { command: ['definitely-not-a-command-xyz'] }, { workspace });
    expect(missing).toMatchObject({ score: 0, passed: false });
    // A program that is not installed is the environment's fault, marked so the trial is not a FAIL.
    expect(missing.error).toMatch(
      /could not run: the program "definitely-not-a-command-xyz" is not installed/,
    );
    expect(missing.details).toMatchObject({ error_kind: 'environment' });
  });

  it('refuses an empty command or an unterminated quote', async () => {
    await expect(judge('command', { command: '   ' })).rejects.toThrow(/empty/);
    await expect(judge('command', { command: 'echo "oops' })).rejects.toThrow(/unbalanced/);
    await expect(judge('command', { command: [] })).rejects.toThrow(/options\.command/);
  });

  it('errored output scores 0 without running; negate flips a failure', async () => {
    const script = "require('fs').writeFileSync('marker', 'x')";
    const r = await judge('command', { command: [node, '-e', script] }, { workspace, output: errored });
    expect(r).toMatchObject({ score: 0, passed: false });
    expect(existsSync(join(workspace, 'marker'))).toBe(false);
    const n = await judge(
      'command',
      { command: [node, '-e', 'process.exit(1)'] },
      { workspace, negate: true },
    );
    expect(n).toMatchObject({ score: 1, passed: true });
  });
});
