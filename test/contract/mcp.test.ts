import { randomUUID } from 'node:crypto';
import { afterAll } from 'vitest';
import type { AgentV1 } from '../../src/adapters/types.ts';
import type { TaskInput } from '../../src/core/task.ts';
import { adapterContract, notApplicable, processesMatching } from '../../src/testing.ts';
import { createMcpAgent, type McpOptionsInput, testServer } from '../unit/adapters/mcp-helpers.ts';
import { contractOptions, vitestApi } from './contract-api.ts';

// A real MCP server over stdio: the test-only server in test/fixtures/mcp. Starting one costs
// seconds on a loaded machine, so the cases that leave it running share one (closed at the end);
// those that kill it, fail to start it or need one per trial start their own (and close it).
let shared: Promise<AgentV1> | undefined;
afterAll(async () => {
  await (await shared)?.close?.();
});
const sharedAgent = async (): Promise<AgentV1> => {
  shared ??= createMcpAgent(testServer);
  const agent = await shared;
  return {
    specificationVersion: 'v1',
    name: agent.name,
    reports: 'response',
    run: (i, c) => agent.run(i, c),
  };
};
const subject = async (input: TaskInput, options?: Partial<McpOptionsInput>) => ({
  agent: options === undefined ? await sharedAgent() : await createMcpAgent({ ...testServer, ...options }),
  input,
});
const call = (tool: string, args: Record<string, unknown> = {}) => ({ tool, arguments: args });
const SLOW = call('slow', { ms: 600_000 });

adapterContract(
  'mcp',
  vitestApi,
  {
    success: async () => ({ ...(await subject(call('echo', { text: 'Ada' }))), output: 'Ada\n(3 chars)' }),
    errors: {
      'a tool that reports an error': async () => ({
        ...(await subject(call('fail', { reason: 'no' }))),
        error_kind: 'tool_error',
      }),
      'a tool the server does not have': async () => ({
        ...(await subject(call('no_such_tool'))),
        error_kind: 'tool_unknown',
      }),
      'arguments the server refuses': async () => ({
        ...(await subject(call('echo', { text: 42 }))),
        error_kind: 'tool_invalid_args',
      }),
      'a server that dies mid-call': async () => ({
        ...(await subject(call('crash'), {})),
        error_kind: 'crash',
      }),
      'a server that fails to start': async () => ({
        ...(await subject(call('echo', { text: 'Ada' }), {
          command: process.execPath,
          args: ['-e', 'process.exit(3)'],
        })),
        error_kind: 'config',
      }),
    },
    hang: () => subject(SLOW),
    orphans: async () => {
      // A server per trial (lifecycle: trial), marked by an argument it ignores.
      const mark = `contract-${randomUUID()}`;
      return {
        ...(await subject(SLOW, { lifecycle: 'trial', args: [...(testServer.args ?? []), mark] })),
        leftovers: () => processesMatching(mark),
      };
    },
    usage: notApplicable('an MCP tool result carries no tokens or cost: the protocol has no usage'),
    events: async () => ({
      ...(await subject({ steps: [call('echo', { text: 'a' }), call('echo', { text: 'b' })] })),
      tool_calls: ['echo', 'echo'],
    }),
  },
  contractOptions,
);
