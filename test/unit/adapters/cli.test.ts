// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${VAR}` is the env template syntax under test.
import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { cliAdapter } from '../../../src/adapters/cli.ts';
import type { AgentV1 } from '../../../src/adapters/types.ts';
import { environment, fixturesDir, trialContext } from './trial-context.ts';

const node = process.execPath;
const parentEnv: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  HE_SECRET: 's3cr3t-value',
  HE_SHARED: 'shared',
};

async function agentFor(
  options: Record<string, unknown>,
  env: NodeJS.ProcessEnv = parentEnv,
): Promise<AgentV1> {
  return cliAdapter.create(cliAdapter.options.parse(options), environment('cli', env));
}

function script(name: string): string {
  return join(fixturesDir, 'cli', name);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    expect(error).toMatchObject({ code: 'ESRCH' });
    return false;
  }
}

/** Waits (bounded, 5 s) for the pids to be reaped; a container PID 1 may reap zombies slowly. */
async function gone(pids: number[]): Promise<boolean> {
  for (let i = 0; i < 250; i += 1) {
    if (!pids.some(isAlive)) return true;
    await delay(20);
  }
  return false;
}

function tempFile(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'he-cli-')), name);
}

describe('cli adapter: input and output', () => {
  it('writes the input on stdin and returns stdout without its trailing newline', async () => {
    const result = await (await agentFor({ command: node, args: [script('echo-stdin.mjs')] })).run(
      'Ada',
      trialContext(),
    );
    expect(result.error).toBeUndefined();
    expect(result.output).toBe('echo: Ada');
    expect(result.metadata).toMatchObject({ exit_code: 0 });
  });

  it('sends an object input as JSON on stdin', async () => {
    const result = await (await agentFor({ command: node, args: [script('echo-stdin.mjs')] })).run(
      { name: 'Ada' },
      trialContext(),
    );
    expect(result.output).toBe('echo: {"name":"Ada"}');
  });

  it('substitutes {{input}} in the arguments without any shell', async () => {
    const agent = await agentFor({
      command: node,
      args: [script('print-args.mjs'), '--name={{input}}', '{{input}}'],
      input: 'arg',
      output: 'json',
    });
    const hostile = '$(touch /tmp/he-pwned); `id` | cat > x';
    const result = await agent.run(hostile, trialContext());
    expect(result.output).toMatchObject({ args: [`--name=${hostile}`, hostile] });
  });

  it('refuses input: arg without a placeholder', async () => {
    await expect(agentFor({ command: node, args: ['x.mjs'], input: 'arg' })).rejects.toThrow(
      /needs an argument containing \{\{input\}\}/,
    );
  });

  it('parses JSON output, taking an object with `output` as an AgentOutput', async () => {
    const plain = await (
      await agentFor({ command: node, args: [script('print-json.mjs')], output: 'json' })
    ).run('q', trialContext());
    expect(plain.output).toEqual({ answer: 42 });
    const full = await (
      await agentFor({ command: node, args: [script('print-json.mjs'), 'agent-output'], output: 'json' })
    ).run('q', trialContext());
    expect(full.output).toBe('Hello, Ada!');
    expect(full.tool_calls).toMatchObject([{ tool_name: 'hello_world', args: { name: 'Ada' } }]);
  });

  it('reports bad JSON as invalid_output with the position', async () => {
    const result = await (
      await agentFor({ command: node, args: [script('print-json.mjs'), 'bad'], output: 'json' })
    ).run('q', trialContext());
    expect(result.error_kind).toBe('invalid_output');
    expect(result.error).toMatch(/^stdout is not valid JSON: .*position \d+/);
  });

  it('ignores EPIPE when the harness does not read its input', async () => {
    const result = await (await agentFor({ command: node, args: [script('ignore-stdin.mjs')] })).run(
      'x'.repeat(4 * 1024 * 1024),
      trialContext(),
    );
    expect(result.error).toBeUndefined();
    expect(result.output).toBe('done');
  });

  it('runs in cwd (relative to the config), else in the workspace, else in the config folder', async () => {
    const options = { command: node, args: [script('print-args.mjs')], output: 'json' };
    const inCwd = await (await agentFor({ ...options, cwd: 'cli' })).run('q', trialContext());
    expect(inCwd.output).toMatchObject({ cwd: realpathSync(join(fixturesDir, 'cli')) });
    const workspace = mkdtempSync(join(tmpdir(), 'he-ws-'));
    const inWorkspace = await (await agentFor(options)).run('q', trialContext({ workspace }));
    expect(inWorkspace.output).toMatchObject({ cwd: realpathSync(workspace) });
    const inBase = await (await agentFor(options)).run('q', trialContext());
    expect(inBase.output).toMatchObject({ cwd: realpathSync(fixturesDir) });
  });
});

describe('cli adapter: environment', () => {
  it('passes PATH, HOME, inherited names, expanded env and ctx.env — and no other secret', async () => {
    const agent = await agentFor({
      command: node,
      args: [script('env-dump.mjs')],
      output: 'json',
      inherit_env: ['HE_SHARED', 'HE_NOT_SET'],
      env: { GREETING: 'hello ${HE_SHARED}', MODE: 'test' },
    });
    const result = await agent.run('q', trialContext({ env: { HARNESSEVAL_EVENTS: '/tmp/events.jsonl' } }));
    expect(result.output).toMatchObject({
      HE_SHARED: 'shared',
      GREETING: 'hello shared',
      MODE: 'test',
      HARNESSEVAL_EVENTS: '/tmp/events.jsonl',
      PATH: process.env.PATH,
    });
    expect(result.output).not.toHaveProperty('HE_SECRET');
    expect(result.output).not.toHaveProperty('HE_NOT_SET');
  });

  it('fails at creation on a variable the env template needs and the parent lacks', async () => {
    await expect(agentFor({ command: node, env: { TOKEN: '${HE_MISSING}' } })).rejects.toThrow(
      'environment variable HE_MISSING is not set (in env.TOKEN)',
    );
  });
});

describe('cli adapter: failures', () => {
  it('makes a non-zero exit an agent error with the exit code and the stderr tail', async () => {
    const result = await (await agentFor({ command: node, args: [script('fail.mjs')] })).run(
      'q',
      trialContext(),
    );
    expect(result.error_kind).toBe('agent');
    expect(result.metadata).toMatchObject({ exit_code: 3 });
    expect(result.error).toMatch(/exited with code 3; stderr: .*Error: the harness gave up at the end$/s);
    expect(result.error?.length).toBeLessThan(2300);
  });

  it('makes death by a signal a crash', async () => {
    const result = await (await agentFor({ command: node, args: [script('self-kill.mjs')] })).run(
      'q',
      trialContext(),
    );
    expect(result).toMatchObject({ error_kind: 'crash', metadata: { signal: 'SIGKILL' } });
  });

  it('names a missing command as a config error', async () => {
    const result = await (await agentFor({ command: 'he-no-such-command-xyz' })).run('q', trialContext());
    expect(result.error_kind).toBe('config');
    expect(result.error).toMatch(/^command not found: he-no-such-command-xyz/);
    const relative = await (await agentFor({ command: './missing.sh' })).run('q', trialContext());
    expect(relative.error).toContain(join(fixturesDir, 'missing.sh'));
  });

  it('names a missing working directory', async () => {
    const result = await (await agentFor({ command: node, cwd: 'no-such-dir' })).run('q', trialContext());
    expect(result).toMatchObject({ error_kind: 'config' });
    expect(result.error).toMatch(/working directory .*no-such-dir does not exist/);
  });

  it('kills a hung harness and its grandchild at the timeout, leaving no process behind', async () => {
    const pidsFile = tempFile('pids.json');
    const agent = await agentFor({ command: node, args: [script('hang.mjs'), pidsFile] });
    const trial = { signal: AbortSignal.timeout(1500) }; // time for hang.mjs to write its pids under load
    const result = await agent.run('q', trialContext({ signal: trial.signal }));
    expect(result.error_kind).toBe('timeout');
    const pids: { child: number; grandchild: number } = JSON.parse(readFileSync(pidsFile, 'utf8'));
    expect(await gone([pids.child, pids.grandchild])).toBe(true);
  });

  it('reaps background processes a harness leaves behind after a clean exit', async () => {
    const pidsFile = tempFile('pids.json');
    const result = await (
      await agentFor({ command: node, args: [script('leave-background.mjs'), pidsFile] })
    ).run('q', trialContext());
    expect(result.output).toBe('finished');
    const pids: { background: number } = JSON.parse(readFileSync(pidsFile, 'utf8'));
    expect(await gone([pids.background])).toBe(true);
  });

  it('stops a harness whose stdout passes max_output_bytes (10 MB by default)', async () => {
    const result = await (await agentFor({ command: node, args: [script('flood.mjs')] })).run(
      'q',
      trialContext(),
    );
    expect(result.error_kind).toBe('invalid_output');
    expect(result.error).toMatch(/stdout exceeded max_output_bytes \(10485760 bytes\)/);
  });

  it('returns aborted on interruption and does not start when already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('SIGINT'));
    const result = await (await agentFor({ command: node, args: [script('echo-stdin.mjs')] })).run(
      'q',
      trialContext({ signal: controller.signal }),
    );
    expect(result).toMatchObject({ error_kind: 'aborted' });
  });
});
