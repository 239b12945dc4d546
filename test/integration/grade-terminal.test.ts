import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExperimentSchema } from '../../src/core/experiment.ts';
import { openStore } from '../../src/store/index.ts';
import { startOpenAICompatibleServer } from '../helpers/openai-compatible-server.ts';
import { cli, HAS_SCRIPT, ROOT, type RunningCli, startOnTerminal } from '../helpers/run-cli.ts';

// Issue 10 item 4 through the built CLI: `grade` on a real terminal exits after the last answer
// and after `q`; a run without --keep-workspaces keeps the harness's change as a diff against the
// starter, which `grade` shows with "criterion N of M" and the judge receives.
const FIX = join(ROOT, 'test/fixtures/grade');
const SUITE = join(FIX, 'suite.yaml');
const HARNESS = join(FIX, 'harness.yaml');
const SECRET = 'tok-deploy-0123456789';

let root = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harnesseval-grade-tty-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Runs the editing harness into a fresh store; returns the store and the experiment id. */
async function runInto(name: string, ...args: string[]) {
  const store = join(root, `${name}.db`);
  const r = await cli(['run', SUITE, '--harness', HARNESS, '--store', store, ...args], ROOT, {
    DEPLOY_TOKEN: SECRET,
  });
  expect(r.stderr).toMatch(/stored experiment exp-/);
  const id = /stored experiment (exp-\S+)/.exec(r.stderr)![1]!;
  return { store, id, run: r };
}

/** Waits for a terminal session to end; a session still open after `ms` is killed and fails the test. */
async function ended(session: RunningCli, ms = 20_000) {
  const timer = setTimeout(() => session.child.kill('SIGKILL'), ms);
  const result = await session.done;
  clearTimeout(timer);
  session.child.stdin?.end();
  if (result.signal === 'SIGKILL') throw new Error(`grade still running after ${ms} ms:\n${result.stdout}`);
  return result;
}

if (!HAS_SCRIPT)
  console.warn('grade-terminal: util-linux `script` is not installed, so the terminal tests are skipped');

describe.runIf(HAS_SCRIPT)('harnesseval grade on a terminal', () => {
  it('shows the change as a diff with "criterion N of M" and exits after the last answer', async () => {
    const { store, id, run } = await runInto('answers');
    expect(run.stderr).not.toContain('kept ');
    const session = startOnTerminal(['grade', id, '--store', store, '--grader', 'Ann']);
    session.child.stdin?.write('4\n3\n');
    const result = await ended(session);
    expect(result.status).toBe(0);
    const out = result.stdout;
    expect(out).toContain('[criterion 1 of 1]');
    expect(out).toContain('changed index.js');
    expect(out).toContain('added notes.md');
    expect(out).toContain('-export const x = 1;');
    expect(out).toContain('+export const x = 2; // raised');
    expect(out).toContain('+token=[REDACTED:DEPLOY_TOKEN]');
    expect(out).not.toContain(SECRET);
    expect(out).toContain('graded 1 criteria as Ann; 0 still pending');

    const opened = await openStore(store);
    const record = (await opened.getExperiment(id))!.records[0]!;
    await opened.close();
    expect(record.workspace).toBeUndefined();
    expect(record.workspace_diff?.files).toEqual([
      { path: 'index.js', status: 'changed' },
      { path: 'notes.md', status: 'added' },
    ]);
    expect(JSON.stringify(record)).not.toContain(SECRET);
    expect(record.criteria.find((c) => c.id === 'ac-02')?.status).toBe('passed');
  });

  it('exits after q, keeping the grades given so far', async () => {
    const { store, id } = await runInto('quit', '--epochs', '2');
    const session = startOnTerminal(['grade', id, '--store', store]);
    session.child.stdin?.write('4\n3\nq\n');
    const result = await ended(session);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('[criterion 1 of 2]');
    expect(result.stdout).toContain('[criterion 2 of 2]');
    expect(result.stdout).toMatch(/graded 1 criteria as \S+; 1 still pending/);
  });
});

describe('the kept change outside grade', () => {
  it('run --keep-workspaces says where the workspaces are', async () => {
    const { run } = await runInto('kept', '--keep-workspaces', '--epochs', '2');
    const kept = /kept 2 workspaces: (\S+), (\S+)\n/.exec(run.stderr);
    expect(kept?.slice(1).every((path) => path.includes('harnesseval-tiny-task-'))).toBe(true);
    for (const path of kept?.slice(1) ?? []) await rm(path, { recursive: true, force: true });
  });

  it('the judge grades the diff against the starter, not whole files', async () => {
    const server = await startOpenAICompatibleServer(() => '{"rationale": "small and clear", "level": 4}');
    try {
      const r = await cli(
        [
          'run',
          SUITE,
          '--harness',
          HARNESS,
          '--no-store',
          '--reporter',
          'json',
          '--judge',
          `openai-compatible:grader@${server.baseURL}`,
        ],
        ROOT,
        { DEPLOY_TOKEN: SECRET },
      );
      expect(r.status).toBe(0);
      const experiment = ExperimentSchema.parse(JSON.parse(r.stdout));
      expect(experiment.records[0]?.criteria.find((c) => c.id === 'ac-02')?.status).toBe('passed');
      expect(server.requests.length).toBe(2); // one per rubric dimension
      for (const request of server.requests) {
        const prompt = request.messages.map((m) => m.content).join('\n');
        expect(prompt).toContain(
          '--- a/index.js\n+++ b/index.js\n@@ -1,1 +1,1 @@\n-export const x = 1;\n+export const x = 2; // raised',
        );
        expect(prompt).toContain('Final message:\nRaised x.');
        expect(prompt).not.toContain(SECRET);
      }
    } finally {
      await server.close();
    }
  });
});
