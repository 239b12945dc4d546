import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acpAdapter } from '../../../src/adapters/acp.ts';
import type { AgentV1 } from '../../../src/adapters/types.ts';
import type { AgentOutput } from '../../../src/core/agent-output.ts';
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
