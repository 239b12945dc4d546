import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { acpAdapter } from '../../src/adapters/acp.ts';
import { claudeCodeAdapter } from '../../src/adapters/claude-code.ts';
import { codexAdapter } from '../../src/adapters/codex.ts';
import type { AgentV1 } from '../../src/adapters/types.ts';
import { adapterContract, processesMatching } from '../../src/testing.ts';
import { environment } from '../unit/adapters/trial-context.ts';
import { contractOptions, vitestApi } from './contract-api.ts';

// The coding-agent adapters against stand-ins for their CLIs: coding-cli.mjs replays what the
// real `claude -p` and `codex exec` printed (captured offline against the gateway's scripted
// model) and misbehaves on request; acp-agent.mjs is a real ACP agent built with the official SDK.
const fixture = (path: string) => fileURLToPath(new URL(`../fixtures/${path}`, import.meta.url));
const fakeCli = fixture('contract/coding-cli.mjs');
const acpAgentFile = fixture('coding-agents/acp-agent.mjs');
// biome-ignore lint/suspicious/noTemplateCurlyInString: the adapter expands it, not JavaScript
const UNSET = { env: { CONTRACT_TOKEN: '${HARNESSEVAL_CONTRACT_UNSET_VARIABLE}' } };

let workspace: string;
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'he-contract-acp-'));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

type CliAdapter = typeof claudeCodeAdapter | typeof codexAdapter;

function cliContract(
  name: 'claude-code' | 'codex',
  adapter: CliAdapter,
  success: { output: string; tools: string[]; calls: number; usage: object },
) {
  const agent = (options: Record<string, unknown> = {}): Promise<AgentV1> =>
    adapter.create(
      adapter.options.parse({ command: fakeCli, ...options }) as never,
      environment(name, process.env),
    );
  const subject = async (input: string) => ({ agent: await agent(), input });
  adapterContract(
    name,
    vitestApi,
    {
      success: async () => ({ ...(await subject('success')), output: success.output }),
      errors: {
        'a refusal the CLI reports': async () => ({ ...(await subject('refused')), error_kind: 'agent' }),
        'a non-zero exit': async () => ({ ...(await subject('exit')), error_kind: 'agent' }),
        'a CLI killed by a signal': async () => ({ ...(await subject('crash')), error_kind: 'crash' }),
        'output that is no event stream': async () => ({
          ...(await subject('garbage')),
          error_kind: 'invalid_output',
        }),
        'a command that does not exist': async () => ({
          agent: await agent({ command: 'no-such-coding-agent-xyz' }),
          input: 'success',
          error_kind: 'config',
        }),
        'an env variable that is not set': async () => ({
          agent: await agent(UNSET),
          input: 'success',
          error_kind: 'config',
        }),
      },
      hang: () => subject('hang'),
      orphans: async () => {
        const mark = `contract-${randomUUID()}`;
        return {
          agent: await agent({ env: { CONTRACT_MARK: mark } }),
          input: 'orphans',
          leftovers: () => processesMatching(mark, 'environ'),
        };
      },
      usage: async () => ({ ...(await subject('success')), usage: success.usage }),
      events: async () => ({
        ...(await subject('success')),
        agent_calls: success.calls,
        tool_calls: success.tools,
      }),
    },
    contractOptions,
  );
}

// The figures are the captured scripts' own (test/unit/adapters/coding-agent-transcripts.test.ts).
cliContract('claude-code', claudeCodeAdapter, {
  output: 'notes.txt is written; the check exited with 3.',
  tools: ['Write', 'Bash'],
  calls: 2,
  usage: { tokens_in: 5100, tokens_out: 82, cached_tokens: 2000 },
});
cliContract('codex', codexAdapter, {
  output: 'Added added.txt.',
  tools: ['shell', 'apply_patch'],
  calls: 3,
  usage: { tokens_in: 4250, tokens_out: 90, cached_tokens: 1100 },
});

const acpAgent = (options: Record<string, unknown> = {}): Promise<AgentV1> =>
  acpAdapter.create(
    acpAdapter.options.parse({ command: 'node', args: [acpAgentFile], ...options }),
    environment('acp', process.env),
  );
const acpSubject = async (input: string) => ({ agent: await acpAgent(), input, workspace });

adapterContract(
  'acp',
  vitestApi,
  {
    success: async () => ({ ...(await acpSubject('work')), output: 'Wrote notes.txt.' }),
    errors: {
      'an agent that dies mid-turn': async () => ({ ...(await acpSubject('crash')), error_kind: 'crash' }),
      'a command that does not exist': async () => ({
        agent: await acpAgent({ command: 'no-such-acp-agent-xyz' }),
        input: 'work',
        workspace,
        error_kind: 'config',
      }),
      'an agent that never initializes': async () => ({
        agent: await acpAgent({ command: 'sleep', args: ['30'], startup_timeout_seconds: 0.3 }),
        input: 'work',
        workspace,
        error_kind: 'config',
      }),
      'an env variable that is not set': async () => ({
        agent: await acpAgent(UNSET),
        input: 'work',
        workspace,
        error_kind: 'config',
      }),
    },
    hang: () => acpSubject('hang'),
    orphans: async () => {
      // `hang N` starts `sleep N`: the agent and its child carry the mark in their environment.
      const mark = `contract-${randomUUID()}`;
      return {
        agent: await acpAgent({ env: { CONTRACT_MARK: mark } }),
        input: 'hang 1000',
        workspace,
        leftovers: () => processesMatching(mark, 'environ'),
      };
    },
    usage: async () => ({ ...(await acpSubject('work')), usage: { tokens_in: 5000, tokens_out: 300 } }),
    events: async () => ({ ...(await acpSubject('work')), agent_calls: 1, tool_calls: ['Write notes.txt'] }),
  },
  contractOptions,
);
