import { afterAll, describe, expect, it } from 'vitest';
import { mcpAdapter } from '../../../src/adapters/mcp.ts';
import type { AgentV1 } from '../../../src/adapters/types.ts';
import { environment, trialContext } from './trial-context.ts';

const agents: AgentV1[] = [];

async function agentFor(options: Record<string, unknown>): Promise<AgentV1> {
  const agent = await mcpAdapter.create(
    mcpAdapter.options.parse(options),
    environment('mcp', { PATH: process.env.PATH, HOME: process.env.HOME }),
  );
  agents.push(agent);
  return agent;
}

afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.close?.()));
});

describe('mcp adapter (minimal)', () => {
  it('calls the tool named by a {tool, arguments} input over one shared stdio connection', async () => {
    const agent = await agentFor({ command: process.execPath, args: ['mcp-server.mjs'] });
    const first = await agent.run({ tool: 'hello_world', arguments: { name: 'Ada' } }, trialContext());
    expect(first.error).toBeUndefined();
    expect(first.output).toBe('Hello, Ada!');
    expect(first.structured).toEqual({ greeting: 'Hello, Ada!' });
    expect(first.tool_calls).toMatchObject([
      { tool_name: 'hello_world', args: { name: 'Ada' }, status: 'success' },
    ]);
    const second = await agent.run({ tool: 'hello_world', arguments: { name: 'Bo' } }, trialContext());
    expect(second.output).toBe('Hello, Bo!');
  });

  it('sends a text input to default_tool, and turns isError into an agent error', async () => {
    const agent = await agentFor({
      command: process.execPath,
      args: ['mcp-server.mjs'],
      default_tool: 'hello_world',
      input_argument: 'name',
    });
    expect((await agent.run('Cy', trialContext())).output).toBe('Hello, Cy!');
    const failed = await agent.run('fail', trialContext());
    expect(failed).toMatchObject({ error_kind: 'agent', error: 'cannot greet fail' });
    expect(failed.tool_calls).toMatchObject([{ status: 'error' }]);
  });

  it('reports a server that fails to start with its stderr tail', async () => {
    const agent = await agentFor({
      command: process.execPath,
      args: ['-e', 'process.stderr.write("fatal: missing config\\n"); process.exit(1)'],
    });
    const result = await agent.run({ tool: 'x', arguments: {} }, trialContext());
    expect(result.error_kind).toBe('config');
    expect(result.error).toMatch(/^the MCP server did not start: .*; stderr: fatal: missing config$/);
  });
});
