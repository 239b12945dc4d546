import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { adapterOptionSchemas } from '../../../src/adapters/catalog.ts';
import { planToolCalls } from '../../../src/adapters/mcp-plan.ts';
import type { AgentV1 } from '../../../src/adapters/types.ts';
import {
  createMcpAgent,
  environment,
  helloWorldServer,
  isAlive,
  startHttpHelloWorld,
  testServer,
  trial,
} from './mcp-helpers.ts';

describe('mcp adapter over stdio, against the real hello-world server', () => {
  let agent: AgentV1;
  beforeAll(async () => {
    agent = await createMcpAgent(helloWorldServer);
  });
  afterAll(async () => {
    await agent.close?.();
  });

  it('calls the tool named in the input and maps text, structuredContent and the call', async () => {
    const out = await agent.run({ tool: 'hello_world', arguments: { name: 'Ada' } }, trial(''));
    expect(out.error).toBeUndefined();
    expect(out.output).toBe('Hello, Ada!');
    expect(out.structured).toMatchObject({ greeting: 'Hello, Ada!', name: 'Ada', truncated: false });
    expect(out.tool_calls).toHaveLength(1);
    expect(out.tool_calls[0]).toMatchObject({
      tool_name: 'hello_world',
      args: { name: 'Ada' },
      status: 'success',
    });
    expect(out.tool_calls[0]?.duration).toBeGreaterThanOrEqual(0);
    expect(out.metadata).toMatchObject({ mcp_server: { name: 'hello-world' } });
  });

  it('serves concurrent trials over the one connection', async () => {
    const names = ['Ann', 'Bo', 'Cy', 'Di', 'Ed'];
    const outs = await Promise.all(
      names.map((name) => agent.run({ tool: 'hello_world', arguments: { name } }, trial(''))),
    );
    expect(outs.map((o) => o.output)).toEqual(names.map((n) => `Hello, ${n}!`));
  });

  it('reports an unknown tool as tool_unknown with the call recorded', async () => {
    const out = await agent.run({ tool: 'no_such_tool', arguments: {} }, trial(''));
    expect(out.error).toMatch(/no_such_tool/);
    expect(out.error_kind).toBe('tool_unknown');
    expect(out.tool_calls[0]).toMatchObject({ tool_name: 'no_such_tool', status: 'error' });
  });

  it('reports arguments the server refuses as tool_invalid_args', async () => {
    const wrongType = await agent.run({ tool: 'hello_world', arguments: { name: 42 } }, trial(''));
    expect(wrongType.error_kind).toBe('tool_invalid_args');
    expect(wrongType.error).toMatch(/Invalid arguments/);
    const missing = await agent.run({ tool: 'hello_world', arguments: {} }, trial(''));
    expect(missing.error_kind).toBe('tool_invalid_args');
  });

  it('runs a script of steps in order and stops at the first that fails, naming the step', async () => {
    const ok = await agent.run(
      {
        steps: [
          { tool: 'hello_world', arguments: { name: 'A' } },
          { tool: 'hello_world', arguments: { name: 'B' } },
        ],
      },
      trial(''),
    );
    expect(ok.output).toBe('Hello, B!');
    expect(ok.tool_calls.map((c) => c.args)).toEqual([{ name: 'A' }, { name: 'B' }]);
    const stopped = await agent.run(
      {
        steps: [
          { tool: 'hello_world', arguments: { name: 'A' } },
          { tool: 'nope', arguments: {} },
          { tool: 'hello_world', arguments: { name: 'C' } },
        ],
      },
      trial(''),
    );
    expect(stopped.error).toMatch(/^step 2 of 3: tool `nope`/);
    expect(stopped.error_kind).toBe('tool_unknown');
    expect(stopped.tool_calls.map((c) => c.tool_name)).toEqual(['hello_world', 'nope']);
  });

  it('rejects an input with `tool` but a misspelt `arguments` key, explaining the shape', async () => {
    const out = await agent.run({ tool: 'hello_world', args: { name: 'Ada' } }, trial(''));
    expect(out.error_kind).toBe('config');
    expect(out.error).toMatch(/\{tool: string, arguments\?: object\}/);
    expect(out.tool_calls).toEqual([]);
  });

  it('explains the input shape when a text input has no default_tool', async () => {
    const out = await agent.run('Greet Ada', trial('Greet Ada'));
    expect(out.error_kind).toBe('config');
    expect(out.error).toMatch(/default_tool/);
  });

  it('returns an aborted error at once for a trial whose signal already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    const out = await agent.run(
      { tool: 'hello_world', arguments: { name: 'x' } },
      trial('', controller.signal),
    );
    expect(out.error_kind).toBe('aborted');
  });
});

describe('mcp adapter against the test-only server', () => {
  let agent: AgentV1;
  beforeAll(async () => {
    agent = await createMcpAgent({ ...testServer, default_tool: 'echo', input_argument: 'text' });
  });
  afterAll(async () => {
    await agent.close?.();
  });

  it('makes isError a tool_error carrying the tool text', async () => {
    const out = await agent.run({ tool: 'fail', arguments: { reason: 'nope' } }, trial(''));
    expect(out.error).toContain('refused: nope');
    expect(out.error_kind).toBe('tool_error');
    expect(out.output).toBe('refused: nope');
    expect(out.tool_calls[0]).toMatchObject({ tool_name: 'fail', status: 'error' });
  });

  it('joins several text blocks and keeps structuredContent', async () => {
    const out = await agent.run({ tool: 'echo', arguments: { text: 'hi' } }, trial(''));
    expect(out.output).toBe('hi\n(2 chars)');
    expect(out.structured).toEqual({ text: 'hi', length: 2 });
  });

  it('calls default_tool with a text input under input_argument', async () => {
    const out = await agent.run('plain text', trial('plain text'));
    expect(out.error).toBeUndefined();
    expect(out.structured).toEqual({ text: 'plain text', length: 10 });
    expect(out.tool_calls[0]?.args).toEqual({ text: 'plain text' });
  });

  it('cancels a slow call when the trial is aborted (aborted) or times out (timeout)', async () => {
    const controller = new AbortController();
    const pending = agent.run({ tool: 'slow', arguments: { ms: 30_000 } }, trial('', controller.signal));
    setTimeout(() => controller.abort(), 100);
    const aborted = await pending;
    expect(aborted.error_kind).toBe('aborted');
    expect(aborted.tool_calls[0]).toMatchObject({ tool_name: 'slow', status: 'error' });

    const timedOut = await agent.run(
      { tool: 'slow', arguments: { ms: 30_000 } },
      trial('', AbortSignal.timeout(100)),
    );
    expect(timedOut.error_kind).toBe('timeout');
    // The connection survives a cancelled call.
    const after = await agent.run({ tool: 'echo', arguments: { text: 'still here' } }, trial(''));
    expect(after.error).toBeUndefined();
  });
});

const ServerProcessSchema = z.object({ pid: z.number().int() });

describe('mcp adapter: the server process', () => {
  it('passes the server only PATH, HOME and the listed env, and resolves cwd against baseDir', async () => {
    const env = { ...process.env, SECRET_TOKEN: 's3cret', PASS_ME: 'passed' };
    const agent = await createMcpAgent(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: `${NAME}` is the adapter's own syntax.
      { ...testServer, env: { GIVEN: 'given', FROM_PARENT: '${PASS_ME}' } },
      environment({ env }),
    );
    try {
      const names = ['SECRET_TOKEN', 'PASS_ME', 'GIVEN', 'FROM_PARENT', 'PATH', 'USER', 'SHELL'];
      const out = await agent.run({ tool: 'env', arguments: { names } }, trial(''));
      expect(out.error).toBeUndefined();
      expect(out.structured).toMatchObject({
        seen: {
          SECRET_TOKEN: null,
          PASS_ME: null,
          GIVEN: 'given',
          FROM_PARENT: 'passed',
          USER: null,
          SHELL: null,
        },
      });
      expect(out.structured).toMatchObject({ cwd: expect.stringMatching(/test[\\/]fixtures[\\/]mcp$/) });
    } finally {
      await agent.close?.();
    }
  });

  it('starts the server lazily, once per run, and close() kills it', async () => {
    const agent = await createMcpAgent(testServer);
    const first = await agent.run({ tool: 'env', arguments: { names: [] } }, trial(''));
    const second = await agent.run({ tool: 'env', arguments: { names: [] } }, trial(''));
    const { pid } = ServerProcessSchema.parse(first.structured);
    expect(ServerProcessSchema.parse(second.structured).pid).toBe(pid);
    expect(isAlive(pid)).toBe(true);
    await agent.close?.();
    expect(isAlive(pid)).toBe(false);
    const late = await agent.run({ tool: 'env', arguments: { names: [] } }, trial(''));
    expect(late.error).toMatch(/closed/);
  });

  it('starts a server that died again for the next trial, at most three times per run', async () => {
    const agent = await createMcpAgent(testServer);
    const env = { tool: 'env', arguments: { names: ['PATH'] } };
    try {
      for (let death = 1; death <= 3; death++) {
        const crashed = await agent.run({ tool: 'crash', arguments: {} }, trial(''));
        expect(crashed.error_kind).toBe('crash');
        expect(crashed.error).toContain('the next trial starts the server again');
        const after = await agent.run(env, trial(''));
        expect(after.error).toBeUndefined();
      }
      const last = await agent.run({ tool: 'crash', arguments: {} }, trial(''));
      expect(last.error).toContain('started again 3 times in this run; no more restarts');
      const dead = await agent.run(env, trial(''));
      expect(dead.error_kind).toBe('crash');
    } finally {
      await agent.close?.();
    }
  });

  it('reports a server that dies mid-run as a crash with its stderr', async () => {
    const agent = await createMcpAgent(testServer);
    try {
      const out = await agent.run({ tool: 'crash', arguments: {} }, trial(''));
      expect(out.error_kind).toBe('crash');
      expect(out.error).toContain('exited with code 7');
      expect(out.error).toContain('crashing on purpose');
    } finally {
      await agent.close?.();
    }
  });
});

describe('mcp adapter: a server that fails to start', () => {
  it('gives every trial a config error with the exit status and the stderr tail', async () => {
    const agent = await createMcpAgent({
      command: 'node',
      args: ['-e', "process.stderr.write('boom'); process.exit(3)"],
    });
    const outs = await Promise.all(
      [1, 2, 3].map((n) => agent.run({ tool: 'hello_world', arguments: { name: `n${n}` } }, trial(''))),
    );
    for (const out of outs) {
      expect(out.error_kind).toBe('config');
      expect(out.error).toContain('boom');
      expect(out.error).toContain('exited with code 3 before it answered initialize');
      expect(out.output).toBeNull();
    }
    await agent.close?.();
  });

  it('names a command that does not exist', async () => {
    const agent = await createMcpAgent({ command: 'harnesseval-no-such-command-xyz' });
    const out = await agent.run({ tool: 't', arguments: {} }, trial(''));
    expect(out.error_kind).toBe('config');
    expect(out.error).toMatch(/harnesseval-no-such-command-xyz.*command not found/);
    await agent.close?.();
  });

  it('gives up on a server that never answers initialize, and keeps only the stderr tail', async () => {
    const script = "process.stderr.write('x'.repeat(5000) + 'END-OF-STDERR'); setInterval(() => {}, 1000)";
    const agent = await createMcpAgent({
      command: 'node',
      args: ['-e', script],
      startup_timeout_seconds: 0.5,
    });
    const out = await agent.run({ tool: 't', arguments: {} }, trial(''));
    expect(out.error_kind).toBe('config');
    expect(out.error).toContain('did not answer initialize within 0.5 s');
    expect(out.error).toContain('END-OF-STDERR');
    expect(out.error?.length).toBeLessThan(2600);
    await agent.close?.();
  });

  it('kills a hung server and the processes it started (its process group)', async () => {
    const script = [
      "const { spawn } = require('node:child_process');",
      "const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });",
      "process.stderr.write('pids ' + process.pid + ' ' + child.pid + '\\n');",
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const agent = await createMcpAgent({ command: 'node', args: ['-e', script], startup_timeout_seconds: 1 });
    const out = await agent.run({ tool: 't', arguments: {} }, trial(''));
    const match = /pids (\d+) (\d+)/.exec(out.error ?? '');
    expect(match).not.toBeNull();
    const pids = [Number(match?.[1]), Number(match?.[2])];
    await agent.close?.();
    expect(pids.map(isAlive)).toEqual([false, false]);
  });

  it('reports an HTTP server that cannot be reached', async () => {
    const agent = await createMcpAgent({ url: 'http://127.0.0.1:9/mcp', startup_timeout_seconds: 5 });
    const out = await agent.run({ tool: 'hello_world', arguments: { name: 'x' } }, trial(''));
    expect(out.error_kind).toBe('config');
    expect(out.error).toContain('http://127.0.0.1:9/mcp');
    await agent.close?.();
  });
});

describe('mcp adapter over streamable HTTP', () => {
  it('calls hello_world on the HTTP server bound to 127.0.0.1', async () => {
    const { url, child } = await startHttpHelloWorld();
    const agent = await createMcpAgent({ url });
    try {
      const out = await agent.run({ tool: 'hello_world', arguments: { name: 'Grace' } }, trial(''));
      expect(out.error).toBeUndefined();
      expect(out.output).toBe('Hello, Grace!');
      expect(out.structured).toMatchObject({ name: 'Grace' });
    } finally {
      await agent.close?.();
      child.kill('SIGTERM');
    }
  });
});

describe('planToolCalls', () => {
  const options = adapterOptionSchemas.mcp.parse({
    command: 'x',
    default_tool: 'greet',
    input_argument: 'name',
  });
  const one = (tool: string, args: Record<string, unknown>) => ({ ok: true, calls: [{ tool, args }] });
  it('uses default_tool for text and for an object without `tool`', () => {
    expect(planToolCalls('Ada', options)).toEqual(one('greet', { name: 'Ada' }));
    expect(planToolCalls({ name: 'Bo' }, options)).toEqual(one('greet', { name: 'Bo' }));
  });
  it('prefers an explicit tool and defaults its arguments to {}', () => {
    expect(planToolCalls({ tool: 'other' }, options)).toEqual(one('other', {}));
  });
  it('refuses an empty tool name', () => {
    expect(planToolCalls({ tool: '' }, options).ok).toBe(false);
  });
  it('reads a script of steps in order, and explains a malformed one', () => {
    expect(planToolCalls({ steps: [{ tool: 'a', arguments: { x: 1 } }, { tool: 'b' }] }, options)).toEqual({
      ok: true,
      calls: [
        { tool: 'a', args: { x: 1 } },
        { tool: 'b', args: {} },
      ],
    });
    const bad = planToolCalls({ steps: [{ tool: 'a', args: {} }] }, options);
    expect(!bad.ok && bad.message).toMatch(/`steps` must be .*steps\.0/);
    expect(planToolCalls({ steps: [] }, options).ok).toBe(false);
  });
});

describe('mcp options schema', () => {
  it('lifecycle trial needs a command: it starts the server itself', () => {
    expect(
      adapterOptionSchemas.mcp.safeParse({ url: 'http://127.0.0.1/mcp', lifecycle: 'trial' }).success,
    ).toBe(false);
    expect(adapterOptionSchemas.mcp.parse({ command: 'node' }).lifecycle).toBe('run');
  });
  it('needs exactly one of command and url', () => {
    expect(adapterOptionSchemas.mcp.safeParse({}).success).toBe(false);
    expect(adapterOptionSchemas.mcp.safeParse({ command: 'node', url: 'http://127.0.0.1/mcp' }).success).toBe(
      false,
    );
  });
});
