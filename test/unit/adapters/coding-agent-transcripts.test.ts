import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseClaudeCodeStream } from '../../../src/adapters/claude-code-transcript.ts';
import { parseCodexStream } from '../../../src/adapters/codex-transcript.ts';
import type { ParsedTranscript } from '../../../src/adapters/transcript.ts';

// Real output of the pinned CLIs (Claude Code 2.1.197, Codex 0.169.0) run offline against the
// gateway's scripted model: test/fixtures/coding-agents/capture.mts and scenarios/*.yaml. The
// expected figures are the scripts' own usage.
const fixture = (cli: string, name: string, part: 'stdout' | 'session') =>
  readFileSync(
    new URL(`../../fixtures/coding-agents/${cli}/${name}.${part}.jsonl`, import.meta.url),
    'utf8',
  ).split('\n');
const claude = (name: string, withSession = true) =>
  parseClaudeCodeStream(
    fixture('claude-code', name, 'stdout'),
    withSession ? { sessionLines: fixture('claude-code', name, 'session') } : {},
  );
const codex = (name: string, withRollout = true) =>
  parseCodexStream(
    fixture('codex', name, 'stdout'),
    withRollout ? { rolloutLines: fixture('codex', name, 'session') } : {},
  );

const calls = (p: ParsedTranscript) =>
  p.trace.agent_calls.map((c) => [c.role, c.tokens_in, c.tokens_out, c.cached_tokens, c.cache_write_tokens]);
const tools = (p: ParsedTranscript) => p.toolCalls.map((t) => [t.tool_name, t.status]);

interface Case {
  readonly name: string;
  readonly parse: () => ParsedTranscript;
  readonly output: string | null;
  readonly calls: (string | number)[][];
  readonly tools: string[][];
  readonly breakers?: string[];
  readonly human?: string[];
  readonly error?: RegExp;
  readonly metadata?: Record<string, unknown>;
}

const cases: Case[] = [
  {
    name: 'claude-code success: two tool uses in one message, one failing; usage per message id, cache kept apart',
    parse: () => claude('success'),
    output: 'notes.txt is written; the check exited with 3.',
    // tokens_in = input + cache read + cache write (1200 + 300 + 500; 1400 + 1700).
    calls: [
      ['main', 2000, 64, 300, 500],
      ['main', 3100, 18, 1700, 0],
    ],
    tools: [
      ['Write', 'success'],
      ['Bash', 'error'],
    ],
    // num_turns as Claude Code reports it: 3 for two model calls, one of them with two tool uses.
    metadata: {
      subtype: 'success',
      terminal_reason: 'completed',
      num_turns: 3,
      claude_code_version: '2.1.197',
    },
  },
  {
    name: 'claude-code sub-agent: its call (only in its own transcript) goes after the Task call, with its type as role',
    parse: () => claude('subagent'),
    output: 'The helper says the workspace is empty.',
    calls: [
      ['main', 900, 40, 0, 0],
      ['general-purpose', 500, 12, 0, 0],
      ['main', 1000, 15, 0, 0],
    ],
    tools: [['Task', 'success']],
  },
  {
    name: 'claude-code --max-turns: a circuit breaker, not an error',
    parse: () => claude('max-turns'),
    output: null,
    calls: [['main', 800, 20, 0, 0]],
    tools: [['Bash', 'success']],
    breakers: ['error_max_turns'],
  },
  {
    name: 'claude-code --max-budget-usd: a circuit breaker; the CLI’s own cost kept as reported',
    parse: () => claude('budget'),
    output: null,
    calls: [['main', 20000, 500, 0, 0]],
    tools: [['Bash', 'success']],
    breakers: ['error_max_budget_usd'],
    metadata: { reported_cost_usd: 0.0675 },
  },
  {
    name: 'claude-code permission denial: an unplanned human touchpoint of kind permission',
    parse: () => claude('denied'),
    output: 'I was not allowed to run the command.',
    calls: [
      ['main', 700, 25, 0, 0],
      ['main', 760, 10, 0, 0],
    ],
    tools: [['Bash', 'error']],
    human: ['permission:unplanned'],
  },
  {
    name: 'claude-code API error: an agent error; the made-up <synthetic> message is not a model call',
    parse: () => claude('api-error'),
    output: 'API Error: 400 scripted refusal',
    calls: [],
    tools: [],
    error: /claude-code success: API Error: 400 scripted refusal/,
  },
  {
    name: 'codex success: one call per token_count (input includes cached), shell and apply_patch items',
    parse: () => codex('success'),
    output: 'Added added.txt.',
    calls: [
      ['main', 1200, 40, 200, 0],
      ['main', 1050, 30, 0, 0],
      ['main', 2000, 20, 900, 0],
    ],
    tools: [
      ['shell', 'error'],
      ['apply_patch', 'success'],
    ],
    metadata: { turns: 1 },
  },
  {
    name: 'codex without its rollout: one call for the turn, from turn.completed',
    parse: () => codex('success', false),
    output: 'Added added.txt.',
    calls: [['main', 4250, 90, 1100, 0]],
    tools: [
      ['shell', 'error'],
      ['apply_patch', 'success'],
    ],
  },
  {
    name: 'codex turn.failed: an agent error with the API’s message',
    parse: () => codex('turn-failed'),
    output: null,
    calls: [],
    tools: [],
    error: /codex: .*scripted refusal/,
  },
  {
    name: 'codex request_user_input (refused in exec mode): still an unplanned touchpoint; warnings kept',
    parse: () => codex('user-input'),
    output: 'No answer came, so I stopped.',
    calls: [
      ['main', 600, 30, 0, 0],
      ['main', 650, 12, 0, 0],
    ],
    tools: [],
    human: ['answer:unplanned'],
  },
];

describe('coding-agent transcript parsers on real CLI output', () => {
  it.each(cases)('$name', (c) => {
    const parsed = c.parse();
    expect(parsed.output).toBe(c.output);
    expect(calls(parsed)).toEqual(c.calls);
    expect(tools(parsed)).toEqual(c.tools);
    expect(parsed.trace.circuit_breakers.map((b) => b.type)).toEqual(c.breakers ?? []);
    expect(parsed.trace.human.map((h) => `${h.action}:${h.kind}`)).toEqual(c.human ?? []);
    if (c.error === undefined) expect(parsed.error).toBeUndefined();
    else expect(parsed.error?.message).toMatch(c.error);
    expect(parsed.metadata).toMatchObject(c.metadata ?? {});
    expect(parsed.finished).toBe(true);
    expect(parsed.trace.malformed_events).toEqual([]);
    expect(parsed.usage.tokens_in).toBe(c.calls.reduce((s, call) => s + Number(call[1]), 0));
    expect(parsed.usage.cost_usd).toBeNull();
  });

  it('says when the stream alone undercounts output tokens (message_start usage), instead of hiding it', () => {
    const parsed = claude('success', false);
    expect(calls(parsed).map((c) => c[2])).toEqual([1, 1]);
    expect(parsed.metadata['usage_mismatch']).toEqual({
      calls: { tokens_in: 5100, tokens_out: 2 },
      reported: { tokens_in: 5100, tokens_out: 82 },
    });
  });

  it('keeps tool results, sub-agent invocations and the session details', () => {
    const success = claude('success');
    expect(success.toolCalls[0]).toMatchObject({
      args: { content: 'hello\n' },
      result: expect.stringContaining('File created'),
    });
    expect(success.toolCalls[1]?.result).toMatch(/Exit code 3/);
    const sub = claude('subagent');
    expect(sub.trace.agent_invocations).toEqual([
      expect.objectContaining({ name: 'general-purpose', duration_seconds: expect.any(Number) }),
    ]);
    expect(sub.trace.agent_calls[1]?.metadata).toMatchObject({
      parent_tool_use_id: sub.toolCalls[0]?.id,
      usage_from: 'session',
    });
  });

  it('tolerates unknown events, garbage lines and a cut-off stream without throwing', () => {
    const lines = [
      ...fixture('claude-code', 'success', 'stdout').slice(0, 3),
      'not json at all',
      '[1,2]',
      JSON.stringify({ type: 'stream_event', event: { type: 'ping' } }),
    ];
    const parsed = parseClaudeCodeStream(lines);
    expect(parsed.finished).toBe(false);
    expect(parsed.trace.malformed_events.map((m) => m.line)).toEqual([4, 5]);
    expect(parsed.metadata['unknown_events']).toMatchObject({ counts: { stream_event: 1 } });
    const codexParsed = parseCodexStream([
      '{"type":"thread.started","thread_id":"t"}',
      '{"type":"brand.new","x":1}',
      '{"type":"error","message":"stream lost"}',
    ]);
    expect(codexParsed.error?.message).toBe('codex: stream lost');
    expect(codexParsed.metadata['unknown_events']).toMatchObject({ counts: { 'brand.new': 1 } });
  });

  it('maps codex items it has no real fixture for: MCP calls, sub-agents, web search, request_user_input events', () => {
    const event = (item: object) => JSON.stringify({ type: 'item.completed', item });
    const parsed = parseCodexStream([
      event({
        id: 'a',
        type: 'mcp_tool_call',
        server: 'docs',
        tool: 'search',
        arguments: { q: 'x' },
        result: { content: [] },
        status: 'completed',
      }),
      event({
        id: 'b',
        type: 'mcp_tool_call',
        server: 'docs',
        tool: 'fetch',
        arguments: {},
        error: { message: 'boom' },
        status: 'failed',
      }),
      event({
        id: 'c',
        type: 'collab_tool_call',
        tool: 'spawn_agent',
        receiver_thread_ids: ['t2'],
        prompt: 'help',
        status: 'completed',
      }),
      event({ id: 'd', type: 'web_search', query: 'acp spec' }),
      JSON.stringify({
        type: 'request_user_input',
        id: 'r',
        call_id: 'c1',
        questions: [{ question: 'Which one?' }],
      }),
      JSON.stringify({
        type: 'turn.completed',
        usage: { input_tokens: 10, cached_input_tokens: 4, output_tokens: 2 },
      }),
    ]);
    expect(tools(parsed)).toEqual([
      ['mcp__docs__search', 'success'],
      ['mcp__docs__fetch', 'error'],
      ['spawn_agent', 'success'],
      ['web_search', 'success'],
    ]);
    expect(parsed.toolCalls[1]?.result).toBe('boom');
    expect(parsed.trace.agent_invocations).toEqual([{ name: 'subagent', id: 't2' }]);
    expect(parsed.trace.human).toEqual([
      { action: 'answer', kind: 'unplanned', minutes: 0, note: 'Which one?' },
    ]);
    expect(calls(parsed)).toEqual([['main', 10, 2, 4, 0]]);
  });
});

describe('coding-agent command lines', () => {
  it('gives claude -p the options as flags, never the prompt (it goes on stdin)', async () => {
    const { claudeCodeArgs } = await import('../../../src/adapters/claude-code.ts');
    const { ClaudeCodeOptionsSchema } = await import('../../../src/adapters/coding-agent-options.ts');
    const args = claudeCodeArgs(
      ClaudeCodeOptionsSchema.parse({
        model: 'claude-sonnet-4-5',
        max_turns: 5,
        max_budget_usd: 0.5,
        allowed_tools: ['Read', 'Bash(git *)'],
        disallowed_tools: ['WebFetch'],
        append_system_prompt: 'Be brief.',
        mcp_servers: { docs: { command: 'docs-server', args: ['--stdio'] } },
        extra_args: ['--effort', 'low'],
      }),
    );
    expect(args).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'bypassPermissions',
      '--model',
      'claude-sonnet-4-5',
      '--max-turns',
      '5',
      '--max-budget-usd',
      '0.5',
      '--allowedTools',
      'Read,Bash(git *)',
      '--disallowedTools',
      'WebFetch',
      '--append-system-prompt',
      'Be brief.',
      '--mcp-config',
      '{"mcpServers":{"docs":{"command":"docs-server","args":["--stdio"],"env":{}}}}',
      '--strict-mcp-config',
      '--effort',
      'low',
    ]);
  });

  it('points codex exec at the gateway with its own model provider, and reads the prompt from stdin', async () => {
    const { codexArgs } = await import('../../../src/adapters/codex.ts');
    const { CodexOptionsSchema } = await import('../../../src/adapters/coding-agent-options.ts');
    const gateway = {
      anthropicBaseUrl: 'http://127.0.0.1:1/r/x',
      openaiBaseUrl: 'http://127.0.0.1:1/r/x/v1',
      apiKey: 'he-gw-x',
    };
    const args = codexArgs(
      CodexOptionsSchema.parse({ model: 'gpt-5.5', config: { model_reasoning_effort: 'low' } }),
      gateway,
    );
    expect(args).toEqual([
      'exec',
      '--json',
      '--skip-git-repo-check',
      '-m',
      'gpt-5.5',
      '-s',
      'workspace-write',
      '-c',
      'model_providers.harnesseval.name="harnesseval"',
      '-c',
      'model_providers.harnesseval.base_url="http://127.0.0.1:1/r/x/v1"',
      '-c',
      'model_providers.harnesseval.env_key="HARNESSEVAL_GATEWAY_KEY"',
      '-c',
      'model_providers.harnesseval.wire_api="responses"',
      '-c',
      'model_provider="harnesseval"',
      '-c',
      'model_reasoning_effort="low"',
      '-',
    ]);
    expect(codexArgs(CodexOptionsSchema.parse({ bypass_sandbox: true }), undefined)).toEqual([
      'exec',
      '--json',
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      '-',
    ]);
  });
});
