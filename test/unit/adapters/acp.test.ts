import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acpAdapter } from '../../../src/adapters/acp.ts';
import { parseAcpSession } from '../../../src/adapters/acp-updates.ts';
import type { AgentV1 } from '../../../src/adapters/types.ts';
import type { AgentOutput } from '../../../src/core/agent-output.ts';
import { BwrapSandbox } from '../../../src/sandbox/bwrap.ts';
import { NoSandbox } from '../../../src/sandbox/none.ts';
import { survivors, uniqueSeconds } from '../../helpers/processes.ts';
import { environment, trialContext } from './trial-context.ts';

const agentFile = fileURLToPath(new URL('../../fixtures/coding-agents/acp-agent.mjs', import.meta.url));
let workspace: string;
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'he-acp-'));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

async function acpAgent(options: Record<string, unknown> = {}): Promise<AgentV1> {
  const parsed = acpAdapter.options.parse({ command: 'node', args: [agentFile], ...options });
  return acpAdapter.create(parsed, environment('acp', process.env));
}

const run = async (
  prompt: string,
  options: Record<string, unknown> = {},
  signal?: AbortSignal,
): Promise<AgentOutput> =>
  (await acpAgent(options)).run(
    prompt,
    trialContext({ workspace, input: prompt, ...(signal === undefined ? {} : { signal }) }),
  );

describe('the acp adapter (a real ACP agent over stdio)', () => {
  it('turns a session into the trace: text, tool calls, plan, usage, a permission touchpoint, unknown updates kept', async () => {
    const out = await run('work');
    expect(out.error).toBeUndefined();
    expect(out.output).toBe('Wrote notes.txt.');
    expect(await readFile(join(workspace, 'notes.txt'), 'utf8')).toBe('from the agent\n');
    expect(out.tool_calls).toEqual([
      expect.objectContaining({
        tool_name: 'Write notes.txt',
        args: { path: 'notes.txt' },
        result: { written: true },
        status: 'success',
      }),
    ]);
    expect(out.trace?.human).toEqual([
      { action: 'permission', kind: 'unplanned', minutes: 0, note: 'allow: Write notes.txt' },
    ]);
    expect(out.trace?.agent_calls).toEqual([
      expect.objectContaining({
        tokens_in: 5000,
        tokens_out: 300,
        cached_tokens: 1000,
        metadata: expect.objectContaining({ usage_from: 'prompt_response' }),
      }),
    ]);
    expect(out.usage).toMatchObject({ tokens_in: 5000, tokens_out: 300, cost_usd: null });
    expect(out.metadata).toMatchObject({
      stop_reason: 'end_turn',
      reported_cost_usd: 0.0123,
      context_window: { used: 5300, size: 200000 },
      plan: [{ content: 'write the file', status: 'pending' }],
      unknown_events: { counts: { brand_new_update: 1 } },
    });
  });

  it('answers permission requests by the deny policy, and the refused tool call is an error', async () => {
    const out = await run('work', { permission: 'deny' });
    expect(out.output).toBe('Could not write notes.txt.');
    expect(out.tool_calls[0]?.status).toBe('error');
    expect(out.trace?.human[0]?.note).toBe('deny: Write notes.txt');
    await expect(readFile(join(workspace, 'notes.txt'), 'utf8')).rejects.toThrow();
  });

  it('records a turn limit as a circuit breaker, not an error', async () => {
    const out = await run('limit');
    expect(out.error).toBeUndefined();
    expect(out.trace?.circuit_breakers).toEqual([
      { type: 'max_turn_requests', trigger: 'stopReason', resolution: 'stopped' },
    ]);
  });

  it.each([
    [
      'an agent that dies mid-turn',
      { prompt: 'crash', options: {} },
      'crash',
      /exited \(code 3\) before the turn ended/,
    ],
    [
      'a command that does not exist',
      { prompt: 'work', options: { command: 'no-such-acp-agent-xyz' } },
      'config',
      /command not found/,
    ],
    [
      'an agent that never initializes',
      { prompt: 'work', options: { command: 'sleep', args: ['30'], startup_timeout_seconds: 0.3 } },
      'config',
      /did not initialize/,
    ],
  ])('contains %s as an error output', async (_name, c, kind, message) => {
    const out = await run(c.prompt, c.options);
    expect(out.error_kind).toBe(kind);
    expect(out.error).toMatch(message);
  });

  it('ends a hung agent and the process it started at the timeout, leaving none behind', async () => {
    const marker = uniqueSeconds();
    const out = await run(`hang ${marker}`, {}, AbortSignal.timeout(1500));
    expect(out.error_kind).toBe('timeout');
    expect(await survivors(marker)).toEqual([]);
  });

  it('stops at an interrupt as aborted', async () => {
    const marker = uniqueSeconds();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('interrupted')), 800);
    const out = await run(`hang ${marker}`, {}, controller.signal);
    expect(out.error_kind).toBe('aborted');
    expect(await survivors(marker)).toEqual([]);
  });
});

describe('the acp adapter and sandboxes', () => {
  it('refuses a sandbox that shows other paths (its client serves files at host paths), starting nothing', async () => {
    const sandbox = new BwrapSandbox(
      { workspace: { host: workspace, target: '/app' }, network: 'none' },
      { bwrap: '/usr/bin/bwrap', prlimit: '/usr/bin/prlimit', node: process.execPath },
      new Map(),
    );
    const agent = await acpAgent();
    const out = await agent.run('work', { ...trialContext({ workspace, input: 'work' }), sandbox });
    expect(out.error_kind).toBe('config');
    expect(out.error).toMatch(/cannot run inside the bwrap sandbox/);
    await expect(readFile(join(workspace, 'notes.txt'), 'utf8')).rejects.toThrow();
  });

  it('runs under backend none, which shows host paths', async () => {
    const sandbox = new NoSandbox({ workspace: { host: workspace, target: workspace }, network: 'none' });
    const agent = await acpAgent();
    const out = await agent.run('work', { ...trialContext({ workspace, input: 'work' }), sandbox });
    expect(out.error).toBeUndefined();
    expect(await readFile(join(workspace, 'notes.txt'), 'utf8')).toBe('from the agent\n');
  });
});

describe('parseAcpSession on what real agents send', () => {
  const update = (u: Record<string, unknown>) => ({ sessionId: 's', update: u });
  // As the Claude Code bridge (@zed-industries/claude-agent-acp 0.23) sends them: a tool call first
  // titled for people, its name in _meta, then its input; turn usage with the cache counted apart.
  const bridge = [
    update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Running it.' } }),
    update({
      sessionUpdate: 'tool_call',
      toolCallId: 't1',
      title: 'Terminal',
      kind: 'execute',
      rawInput: {},
      status: 'pending',
      _meta: { claudeCode: { toolName: 'Bash' } },
    }),
    update({
      sessionUpdate: 'tool_call_update',
      toolCallId: 't1',
      title: 'npm test',
      rawInput: { command: 'npm test' },
      _meta: { claudeCode: { toolName: 'Bash' } },
    }),
    update({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', rawOutput: 'ok' }),
    update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'All ' } }),
    update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'green.' } }),
  ];

  it("names a tool by the agent's own name in _meta, not its title, and keeps its final input", () => {
    const parsed = parseAcpSession({
      updates: bridge,
      permissions: [],
      response: { stopReason: 'end_turn' },
    });
    expect(parsed.toolCalls.map((t) => [t.tool_name, t.args, t.result])).toEqual([
      ['Bash', { command: 'npm test' }, 'ok'],
    ]);
  });

  it('keeps the messages before and after a tool call apart', () => {
    const parsed = parseAcpSession({
      updates: bridge,
      permissions: [],
      response: { stopReason: 'end_turn' },
    });
    expect(parsed.output).toBe('Running it.\n\nAll green.');
  });

  it('counts cache reads and writes into input when totalTokens shows inputTokens left them out', () => {
    const usage = {
      inputTokens: 2400,
      outputTokens: 57,
      cachedReadTokens: 9000,
      cachedWriteTokens: 9000,
      totalTokens: 20457,
    };
    const parsed = parseAcpSession({
      updates: [],
      permissions: [],
      response: { stopReason: 'end_turn', usage },
    });
    expect(
      parsed.trace.agent_calls.map((c) => [c.tokens_in, c.tokens_out, c.cached_tokens, c.cache_write_tokens]),
    ).toEqual([[20400, 57, 9000, 9000]]);
  });

  it('takes inputTokens as they are when totalTokens shows they already hold the cache', () => {
    const usage = { inputTokens: 5000, outputTokens: 300, cachedReadTokens: 1000, totalTokens: 5300 };
    const parsed = parseAcpSession({
      updates: [],
      permissions: [],
      response: { stopReason: 'end_turn', usage },
    });
    expect(parsed.usage).toMatchObject({ tokens_in: 5000, tokens_out: 300, cached_tokens: 1000 });
  });
});
