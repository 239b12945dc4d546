import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acpAdapter } from '../../../src/adapters/acp.ts';
import { claudeCodeAdapter } from '../../../src/adapters/claude-code.ts';
import { codexAdapter } from '../../../src/adapters/codex.ts';
import type { AgentV1 } from '../../../src/adapters/types.ts';
import { liveChildGroups } from '../../../src/util/child-groups.ts';
import { survivors, uniqueSeconds } from '../../helpers/processes.ts';
import { environment, trialContext } from './trial-context.ts';

// Like every harness process, a coding agent's CLI is tagged and tracked while it runs, and what
// it leaves outside its process group (a `setsid` daemon) ends with the trial.
const fixture = (name: string) =>
  fileURLToPath(new URL(`../../fixtures/coding-agents/${name}`, import.meta.url));

let workspace: string;
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'he-agent-procs-'));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

async function agentFor(adapter: 'claude-code' | 'codex' | 'acp', mark: string): Promise<AgentV1> {
  const env = { ...process.env, DAEMON_MARK: mark };
  if (adapter === 'acp')
    return acpAdapter.create(
      acpAdapter.options.parse({ command: 'node', args: [fixture('acp-agent.mjs')] }),
      environment('acp', env),
    );
  const options = { command: fixture('daemon-cli.mjs'), env: { DAEMON_MARK: mark } };
  return adapter === 'claude-code'
    ? claudeCodeAdapter.create(claudeCodeAdapter.options.parse(options), environment('claude-code', env))
    : codexAdapter.create(codexAdapter.options.parse(options), environment('codex', env));
}

describe('coding-agent processes', () => {
  it.each(['claude-code', 'codex', 'acp'] as const)(
    '%s: a daemon the CLI left outside its group is ended with the trial, and the group is untracked',
    async (adapter) => {
      const mark = uniqueSeconds();
      const agent = await agentFor(adapter, mark);
      const prompt = adapter === 'acp' ? `escape ${mark}` : 'fix it';
      const before = liveChildGroups().length;
      const out = await agent.run(prompt, trialContext({ workspace, input: prompt }));
      // The fake CLIs print no events: what the output says does not matter here, only what is left.
      expect(out.error_kind).not.toBe('crash');
      expect(await survivors(mark, 3000)).toEqual([]);
      expect(liveChildGroups()).toHaveLength(before);
    },
    20_000,
  );
});
