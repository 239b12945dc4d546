/**
 * `harnesseval init` through the built CLI: for each adapter that needs no coding-agent CLI, the
 * generated project validates and runs at once (automated criteria pass, rubric and human ones
 * wait); nothing is ever overwritten; wrong flags are usage errors; and on a real pseudo-terminal
 * it asks for what the flags do not give.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { builtinAdapterNames } from '../../src/adapters/catalog.ts';
import type { Experiment } from '../../src/core/experiment.ts';
import { BIN, cli, ROOT } from '../helpers/run-cli.ts';

const scratch = await mkdtemp(join(tmpdir(), 'harnesseval-init-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** A project folder with the repository's node_modules, as a project that installed harnesseval has. */
async function project(name: string): Promise<string> {
  const dir = join(scratch, name);
  await mkdir(dir);
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

async function startHttpSample(dir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['evals/harness/http-agent.mjs'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the sample HTTP harness exited (${code}): ${stderr}`)));
  });
  return child;
}

describe('harnesseval init: the generated project runs at once', () => {
  it.concurrent.each(['function', 'cli', 'http', 'mcp'] as const)(
    'with the %s adapter',
    async (adapter) => {
      const dir = await project(adapter);
      const port = await freePort();
      const created = await cli([
        'init',
        dir,
        '--adapter',
        adapter,
        '--name',
        `demo-${adapter}`,
        '--port',
        String(port),
      ]);
      expect(created.status, created.stderr).toBe(0);
      expect(created.stdout).toContain(`adapter ${adapter}`);
      const validated = await cli(
        ['validate', 'evals/suite.yaml', 'evals/harness.yaml', 'evals/rubric.yaml'],
        dir,
      );
      expect(validated.status, `${validated.stdout}${validated.stderr}`).toBe(0);
      const linted = await cli(['lint', 'evals/suite.yaml'], dir);
      expect(linted.status, `${linted.stdout}${linted.stderr}`).toBe(0);

      const server = adapter === 'http' ? await startHttpSample(dir) : undefined;
      try {
        const run = await cli(
          [
            'run',
            'evals/suite.yaml',
            '--harness',
            'evals/harness.yaml',
            '--no-store',
            '--no-progress',
            '-o',
            'out.json',
          ],
          dir,
        );
        expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
        const experiment = JSON.parse(await readFile(join(dir, 'out.json'), 'utf8')) as Experiment;
        // The run records each task's domain (the task spec's), which compare stratifies by.
        expect(new Set(experiment.suite.tasks.map((t) => t.domain))).toEqual(new Set(['general']));
        const workspace = adapter === 'function' || adapter === 'cli';
        expect(experiment.records.map((r) => r.task_id).sort()).toEqual(
          [
            'greet-by-name',
            'reviewer-sign-off',
            'warm-welcome',
            ...(workspace ? ['greeting-file'] : []),
          ].sort(),
        );
        const verdicts = experiment.records.flatMap((r) =>
          r.criteria.map((c) => `${r.task_id}/${c.id}: ${c.verification} ${c.status}`),
        );
        expect(verdicts.sort()).toEqual(
          [
            'greet-by-name/ac-01: automated passed',
            'greet-by-name/ac-02: automated passed',
            'reviewer-sign-off/ac-01: automated passed',
            'reviewer-sign-off/ac-02: human pending',
            'warm-welcome/ac-01: automated passed',
            'warm-welcome/ac-02: rubric pending',
            ...(workspace ? ['greeting-file/ac-01: automated passed'] : []),
          ].sort(),
        );
      } finally {
        server?.kill('SIGTERM');
      }
    },
    120_000,
  );

  it.concurrent.each(['claude-code', 'codex'] as const)(
    'writes a %s harness with its CLI options',
    async (adapter) => {
      const dir = await project(adapter);
      const created = await cli(['init', dir, '--adapter', adapter, '--yes']);
      expect(created.status, created.stderr).toBe(0);
      const harness = parse(await readFile(join(dir, 'evals/harness.yaml'), 'utf8')) as Record<
        string,
        unknown
      >;
      expect(harness).toMatchObject({ adapter, name: adapter, options: { model: expect.any(String) } });
      expect(await cli(['validate', 'evals/suite.yaml'], dir)).toMatchObject({ status: 0 });
      const workflow = await readFile(join(dir, '.github/workflows/harnesseval.yml'), 'utf8');
      expect(workflow).toContain(adapter === 'claude-code' ? '@anthropic-ai/claude-code' : '@openai/codex');
      const harnessCheck = await cli(['validate', 'evals/harness.yaml'], dir);
      // The coding-agent adapters are built in once they are merged; until then the file is
      // refused as naming an unknown adapter, and this says which state the build is in.
      if ((builtinAdapterNames as readonly string[]).includes(adapter))
        expect(harnessCheck.status, harnessCheck.stderr).toBe(0);
      else expect(harnessCheck.stderr).toContain(`"${adapter}"`);
    },
    60_000,
  );
});

describe('harnesseval init: refusals', () => {
  it('overwrites nothing: a second init, or one over a single existing file, writes no file at all', async () => {
    const dir = await project('twice');
    expect((await cli(['init', dir, '--yes'])).status).toBe(0);
    const before = await stat(join(dir, 'evals/suite.yaml'));
    const again = await cli(['init', dir, '--yes']);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('init would overwrite 12 file(s)');
    expect(again.stderr).toContain('  evals/suite.yaml\n');
    expect((await stat(join(dir, 'evals/suite.yaml'))).mtimeMs).toBe(before.mtimeMs);

    const partial = await project('partial');
    await mkdir(join(partial, 'evals'));
    await writeFile(join(partial, 'evals/README.md'), 'my notes\n');
    const refused = await cli(['init', partial, '--adapter', 'cli', '--yes']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('init would overwrite 1 file(s)');
    expect(await readFile(join(partial, 'evals/README.md'), 'utf8')).toBe('my notes\n');
    expect(existsSync(join(partial, 'evals/suite.yaml'))).toBe(false);
    expect(existsSync(join(partial, '.github'))).toBe(false);
  }, 60_000);

  it.concurrent.each([
    [['--adapter', 'grpc'], "argument 'grpc' is invalid"],
    [['--name', 'Not A Slug'], '--name "Not A Slug": use lower-case letters, digits and dashes'],
    [['--port', '70000'], '--port must be a whole number from 1 to 65535'],
  ])('refuses %j as wrong usage (status 2), writing nothing', async (flags, message) => {
    const dir = await project(`bad-${flags.join('-').replace(/\W+/g, '')}`);
    const result = await cli(['init', dir, '--yes', ...flags]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(existsSync(join(dir, 'evals'))).toBe(false);
  });
});

/** Runs `harnesseval ARGS` on a pseudo-terminal, typing `send` after each `expect` (test/helpers/pty-session.py). */
function onTerminal(
  args: string[],
  cwd: string,
  steps: [string, string][],
): { status: number | null; output: string } {
  const spec = {
    argv: [process.execPath, BIN, ...args],
    cwd,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: process.env['HOME'] ?? cwd, NO_COLOR: '1' },
    steps,
    timeout: 60,
  };
  const result = spawnSync('python3', [join(ROOT, 'test/helpers/pty-session.py')], {
    input: JSON.stringify(spec),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`pty-session.py failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as { status: number | null; output: string };
}

describe('harnesseval init on a terminal', () => {
  it('asks for name, domain, adapter and port, re-asks after a wrong answer, and writes the project', async () => {
    const dir = await project('interactive');
    const session = onTerminal(['init', 'proj'], dir, [
      ['Suite name [proj]: ', 'pty-demo\r'],
      ['Domain [general]: ', 'Support Desk\r'],
      ['lower-case letters, digits and dashes', 'support\r'],
      ['Adapter (function, http, cli, mcp, claude-code, codex) [function]: ', 'bogus\r'],
      ['one of function, http, cli, mcp, claude-code, codex', 'http\r'],
      ['Port of the sample HTTP harness [8787]: ', '9911\r'],
    ]);
    expect(session.status, session.output).toBe(0);
    expect(session.output).toContain('Created 9 files in proj (adapter http)');
    const harness = parse(await readFile(join(dir, 'proj/evals/harness.yaml'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(harness).toMatchObject({ name: 'pty-demo', adapter: 'http', url: 'http://127.0.0.1:9911/agent' });
    expect(await readFile(join(dir, 'proj/evals/suite.yaml'), 'utf8')).toContain('domain: "support"');
  }, 90_000);

  it('asks only what the flags leave open, and Enter takes the default', async () => {
    const dir = await project('defaults');
    const session = onTerminal(['init', '--adapter', 'cli'], dir, [
      ['Suite name [defaults]: ', '\r'],
      ['Domain [general]: ', '\r'],
    ]);
    expect(session.status, session.output).toBe(0);
    expect(session.output).not.toContain('Adapter (');
    expect(parse(await readFile(join(dir, 'evals/harness.yaml'), 'utf8'))).toMatchObject({
      name: 'defaults',
      adapter: 'cli',
    });
  }, 90_000);

  it('stops at end of input (Ctrl-D) with status 2 and writes nothing', async () => {
    const dir = await project('cancelled');
    const session = onTerminal(['init'], dir, [['Suite name [cancelled]: ', '\u0004']]);
    expect(session.status, session.output).toBe(2);
    expect(session.output).toContain('init was cancelled; nothing was written');
    expect(existsSync(join(dir, 'evals'))).toBe(false);
  }, 90_000);
});
