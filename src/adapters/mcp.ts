/**
 * A deliberately small MCP adapter so that the registry's lazy `import('./mcp.ts')` compiles on
 * this branch. The full adapter (issue 3 part 3, written separately) replaces this file.
 */
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { AgentOutput } from '../core/agent-output.ts';
import { errorMessage } from '../core/errors.ts';
import type { TaskInput } from '../core/task.ts';
import { expandEnvTemplate } from '../util/env-template.ts';
import { TailBuffer } from '../util/tail-buffer.ts';
import { abortedOutput, failedOutput, normalizeAgentResult, secondsSince } from './agent-result.ts';
import { type AdapterOptions, adapterOptionSchemas } from './catalog.ts';
import type { AdapterDefinition, AdapterEnvironment, AgentV1 } from './types.ts';

type McpOptions = AdapterOptions<'mcp'>;

interface ToolRequest {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

function toolRequest(input: TaskInput, options: McpOptions): ToolRequest | string {
  if (typeof input === 'object' && typeof input.tool === 'string') {
    const args = input.arguments;
    return { name: input.tool, arguments: typeof args === 'object' && args !== null ? { ...args } : {} };
  }
  if (options.default_tool === undefined) {
    return 'the input is not {tool, arguments} and no default_tool is configured';
  }
  const text = typeof input === 'string' ? input : JSON.stringify(input);
  return { name: options.default_tool, arguments: { [options.input_argument]: text } };
}

function transportFor(options: McpOptions, environment: AdapterEnvironment, stderr: TailBuffer): Transport {
  if (options.url !== undefined) return new StreamableHTTPClientTransport(new URL(options.url));
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'HOME']) {
    const value = environment.env[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, template] of Object.entries(options.env)) {
    env[name] = expandEnvTemplate(template, environment.env, `env.${name}`);
  }
  const transport = new StdioClientTransport({
    command: options.command ?? '',
    args: options.args,
    env,
    cwd: resolve(environment.baseDir, options.cwd ?? '.'),
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.write(chunk));
  return transport;
}

async function createMcpAgent(options: McpOptions, environment: AdapterEnvironment): Promise<AgentV1> {
  const stderr = new TailBuffer(2048);
  const client = new Client({ name: 'harnesseval', version: '0.1.0' });
  // One connection per run, opened by the first trial and shared by all.
  let connection: Promise<void> | undefined;
  const connect = (): Promise<void> => {
    connection ??= client.connect(transportFor(options, environment, stderr));
    return connection;
  };

  return {
    specificationVersion: 'v1',
    name: environment.harness.name,
    async run(input, ctx): Promise<AgentOutput> {
      const start = performance.now();
      const request = toolRequest(input, options);
      if (typeof request === 'string') return failedOutput('config', request);
      try {
        await connect();
      } catch (error) {
        const tail = stderr.toString().trim();
        return failedOutput(
          'config',
          `the MCP server did not start: ${errorMessage(error)}${tail === '' ? '' : `; stderr: ${tail}`}`,
        );
      }
      try {
        const result = await client.callTool(request, undefined, { signal: ctx.signal });
        const latency = secondsSince(start);
        const content = Array.isArray(result.content) ? result.content : [];
        const text = content
          .map((item: unknown) =>
            typeof item === 'object' && item !== null && 'text' in item && typeof item.text === 'string'
              ? item.text
              : '',
          )
          .join('');
        const call = { tool_name: request.name, args: request.arguments, result: text, duration: latency };
        if (result.isError === true) {
          return { ...failedOutput('agent', text, { latency }), tool_calls: [{ ...call, status: 'error' }] };
        }
        const output = normalizeAgentResult(text, latency);
        const structured = result.structuredContent;
        return {
          ...output,
          ...(structured === undefined ? {} : { structured }),
          tool_calls: [{ ...call, status: 'success' }],
        };
      } catch (error) {
        if (ctx.signal.aborted) return abortedOutput(ctx.signal, { latency: secondsSince(start) });
        return failedOutput('agent', `tool call ${request.name} failed: ${errorMessage(error)}`, {
          latency: secondsSince(start),
        });
      }
    },
    close: () => client.close(),
  };
}

export const mcpAdapter: AdapterDefinition<typeof adapterOptionSchemas.mcp> = {
  name: 'mcp',
  description:
    'An MCP server over stdio or streamable HTTP; `{tool, arguments}` inputs call a tool directly.',
  options: adapterOptionSchemas.mcp,
  create: createMcpAgent,
};
