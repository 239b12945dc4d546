import { z } from 'zod';
import { type AgentOutput, type AgentOutputDraft, agentOutput } from '../core/agent-output.ts';
import { errorMessage } from '../core/errors.ts';
import type { TaskInput } from '../core/task.ts';
import { type AdapterOptions, adapterOptionSchemas } from './catalog.ts';
import { abortKind, callMcpTool } from './mcp-call.ts';
import { connectMcp, describeLostServer, type McpConnection } from './mcp-connection.ts';
import type { AdapterDefinition, AdapterEnvironment, AgentV1, TrialContext } from './types.ts';

type McpOptions = AdapterOptions<'mcp'>;

/** A task input that names the tool itself: `{tool: hello_world, arguments: {name: Ada}}`. */
const DirectCallSchema = z
  .object({ tool: z.string().min(1), arguments: z.record(z.string(), z.unknown()).default({}) })
  .strict();

type Plan = { ok: true; tool: string; args: Record<string, unknown> } | { ok: false; message: string };

/** Which tool a task input calls, and with what. */
export function planToolCall(input: TaskInput, options: McpOptions): Plan {
  if (typeof input !== 'string' && 'tool' in input) {
    const parsed = DirectCallSchema.safeParse(input);
    if (parsed.success) return { ok: true, tool: parsed.data.tool, args: parsed.data.arguments };
    return {
      ok: false,
      message:
        'an MCP task input with `tool` must be `{tool: string, arguments?: object}` and nothing else: ' +
        parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; '),
    };
  }
  if (options.default_tool === undefined) {
    return {
      ok: false,
      message:
        'the MCP adapter needs a task input `{tool, arguments}`, or the option `default_tool` ' +
        '(with `input_argument`) to call a tool with a text input',
    };
  }
  const args = typeof input === 'string' ? { [options.input_argument]: input } : { ...input };
  return { ok: true, tool: options.default_tool, args };
}

function failure(error: string, kind: AgentOutputDraft['error_kind'], started: number): AgentOutput {
  return agentOutput({
    output: null,
    error,
    error_kind: kind,
    latency: (performance.now() - started) / 1000,
  });
}

/** Resolves with the value, or with `undefined` as soon as the signal fires. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then((value) => {
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
  });
}

/** How many times a run starts a stdio server again after it died; then its trials fail. */
const MAX_RESTARTS = 3;

/**
 * One MCP server per run: the connection is made on the first trial and shared by all of them.
 * A stdio server that dies takes the trial in flight with it (a `crash`); the next trial starts
 * it again, up to MAX_RESTARTS times per run.
 */
class McpAgent implements AgentV1 {
  readonly specificationVersion = 'v1';
  readonly name = 'mcp';
  readonly reports = 'response';
  #connection: Promise<McpConnection> | undefined;
  #closed = false;
  #restarts = 0;

  constructor(
    private readonly options: McpOptions,
    private readonly environment: AdapterEnvironment,
  ) {}

  #connect(): Promise<McpConnection> {
    this.#connection ??= connectMcp(this.options, this.environment);
    return this.#connection;
  }

  async run(input: TaskInput, ctx: TrialContext): Promise<AgentOutput> {
    const started = performance.now();
    try {
      if (this.#closed) return failure('the MCP adapter was already closed', 'aborted', started);
      const plan = planToolCall(input, this.options);
      if (!plan.ok) return failure(plan.message, 'config', started);
      const connection = await unlessAborted(this.#connect(), ctx.signal);
      if (connection === undefined) {
        return failure(
          'the trial was stopped while connecting to the MCP server',
          abortKind(ctx.signal),
          started,
        );
      }
      if (!connection.ok) return failure(connection.message, 'config', started);
      const outcome = await callMcpTool({
        client: connection.client,
        tool: plan.tool,
        args: plan.args,
        signal: ctx.signal,
        classify: (error) => {
          const lost = describeLostServer(connection.transport, this.options);
          if (lost !== undefined) {
            this.#forget(connection);
            return { message: this.#restartNote(lost), kind: 'crash' };
          }
          return { message: `tool \`${plan.tool}\` failed: ${errorMessage(error)}`, kind: 'agent' };
        },
      });
      const server = connection.client.getServerVersion();
      return agentOutput({
        output: outcome.output,
        structured: outcome.structured,
        error: outcome.error,
        error_kind: outcome.error_kind,
        tool_calls: [outcome.call],
        latency: (performance.now() - started) / 1000,
        metadata: server === undefined ? {} : { mcp_server: { name: server.name, version: server.version } },
      });
    } catch (error) {
      // A bug here must not take the run down: the trial records it instead.
      return failure(`MCP adapter error: ${errorMessage(error)}`, 'agent', started);
    }
  }

  /** Drops a dead server's connection so that the next trial starts a new one (within the limit). */
  #forget(dead: McpConnection): void {
    if (this.#restarts >= MAX_RESTARTS || this.#connection === undefined) return;
    const current = this.#connection;
    void current.then((connection) => {
      if (connection !== dead || this.#connection !== current) return;
      this.#restarts += 1;
      this.#connection = undefined;
      if (connection.ok) void connection.transport.close().catch(() => {});
    });
  }

  #restartNote(lost: string): string {
    return this.#restarts < MAX_RESTARTS
      ? `${lost}\n(the next trial starts the server again)`
      : `${lost}\n(the server was started again ${MAX_RESTARTS} times in this run; no more restarts)`;
  }

  /** Closes the connection and stops the server process (its whole process group). */
  async close(): Promise<void> {
    this.#closed = true;
    const pending = this.#connection;
    this.#connection = undefined;
    if (pending === undefined) return;
    const connection = await pending;
    if (!connection.ok) return;
    await connection.client.close().catch(() => {});
    await connection.transport.close().catch(() => {});
  }
}

export const mcpAdapter: AdapterDefinition<typeof adapterOptionSchemas.mcp> = {
  name: 'mcp',
  description:
    'A Model Context Protocol server over stdio (command) or streamable HTTP (url); tasks call its tools',
  options: adapterOptionSchemas.mcp,
  async create(options, environment) {
    return new McpAgent(options, environment);
  },
};
