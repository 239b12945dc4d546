import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { cliAdapter } from '../../src/adapters/cli.ts';
import type { AgentV1 } from '../../src/adapters/types.ts';
import { adapterContract, processesMatching } from '../../src/testing.ts';
import { TOOLS, USAGE } from '../fixtures/contract/script.ts';
import { environment } from '../unit/adapters/trial-context.ts';
import { contractOptions, vitestApi } from './contract-api.ts';

const script = fileURLToPath(new URL('../fixtures/contract/cli-agent.mjs', import.meta.url));

async function cliAgent(options: Record<string, unknown> = {}): Promise<AgentV1> {
  const parsed = cliAdapter.options.parse({
    command: process.execPath,
    args: [script],
    output: 'json',
    ...options,
  });
  return cliAdapter.create(parsed, environment('cli', process.env));
}

const subject = async (input: string) => ({ agent: await cliAgent(), input });

adapterContract(
  'cli',
  vitestApi,
  {
    success: async () => ({ ...(await subject('Ada')), output: 'Hello, Ada!' }),
    errors: {
      'a non-zero exit': async () => ({ ...(await subject('fail')), error_kind: 'agent' }),
      'a process killed by a signal': async () => ({ ...(await subject('crash')), error_kind: 'crash' }),
      'output that is not JSON': async () => ({
        ...(await subject('garbage')),
        error_kind: 'invalid_output',
      }),
      'a command that does not exist': async () => ({
        agent: await cliAgent({ command: 'no-such-harness-command-xyz' }),
        input: 'Ada',
        error_kind: 'config',
      }),
    },
    hang: () => subject('hang'),
    orphans: async () => {
      // Every process of the trial inherits the mark in its environment.
      const mark = `contract-${randomUUID()}`;
      return {
        agent: await cliAgent({ env: { CONTRACT_MARK: mark } }),
        input: 'orphans',
        leftovers: () => processesMatching(mark, 'environ'),
      };
    },
    usage: async () => ({ ...(await subject('usage')), usage: USAGE }),
    events: async () => ({ ...(await subject('work')), agent_calls: 2, tool_calls: TOOLS }),
  },
  contractOptions,
);
