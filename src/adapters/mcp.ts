import { type AgentOutput, type AgentOutputDraft, agentOutput, type ToolCall } from '../core/agent-output.ts';
import { errorMessage } from '../core/errors.ts';
import type { TaskInput } from '../core/task.ts';
import { type AdapterOptions, adapterOptionSchemas } from './catalog.ts';
import { abortKind, callMcpTool, type KnownTools, type ToolCallOutcome, toolLister } from './mcp-call.ts';
import { connectMcp, describeLostServer, type McpConnection } from './mcp-connection.ts';
import { type PlannedCall, planToolCalls } from './mcp-plan.ts';
import type { AdapterDefinition, AdapterEnvironment, AgentV1, TrialContext } from './types.ts';

type McpOptions = AdapterOptions<'mcp'>;

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
 * With `lifecycle: run` (the default) one MCP server serves the run: the connection is made on the
 * first trial and shared by all of them; a stdio server that dies takes the trial in flight with
 * it (a `crash`) and the next trial starts it again, up to MAX_RESTARTS times per run. With
 * `lifecycle: trial` every trial gets a server of its own, started before its first call and
 * stopped after its last, so a stateful server (memory, files) starts clean each time and
 * concurrent trials cannot see each other's state. Latency counts the calls, not the start-up.
 */
class McpAgent implements AgentV1 {
  readonly specificationVersion = 'v1';
  readonly name = 'mcp';
  readonly reports = 'response';
  #connection: Promise<McpConnection> | undefined;
  #closed = false;
  #restarts = 0;
  readonly #toolLists = new WeakMap<McpConnection, KnownTools>();

  constructor(
    private readonly options: McpOptions,
    private readonly environment: AdapterEnvironment,
  ) {}

  #connect(ctx: TrialContext): Promise<McpConnection> {
    if (this.options.lifecycle === 'trial') {
      // `${HARNESSEVAL_TRIAL}` in `env` names per-trial state (a memory file per trial).
      return connectMcp(
        this.options,
        { ...this.environment, env: { ...this.environment.env, ...ctx.env } },
        ctx.signal,
      );
    }
    this.#connection ??= connectMcp(this.options, this.environment);
    return this.#connection;
  }

  async run(input: TaskInput, ctx: TrialContext): Promise<AgentOutput> {
    const started = performance.now();
    let own: McpConnection | undefined;
    try {
      if (this.#closed) return failure('the MCP adapter was already closed', 'aborted', started);
      const plan = planToolCalls(input, this.options);
      if (!plan.ok) return failure(plan.message, 'config', started);
      // A per-trial server is waited for: the trial's signal stops it while it starts, and nothing
      // of the trial may outlive the trial. A shared one is left starting for the next trial.
      const connection =
        this.options.lifecycle === 'trial'
          ? await this.#connect(ctx)
          : await unlessAborted(this.#connect(ctx), ctx.signal);
      if (this.options.lifecycle === 'trial') own = connection;
      if (connection === undefined || (own !== undefined && ctx.signal.aborted)) {
        return failure(
          'the trial was stopped while connecting to the MCP server',
          abortKind(ctx.signal),
          started,
        );
      }
      if (!connection.ok) return failure(connection.message, 'config', started);
      const server = connection.client.getServerVersion();
      // `return await`: the `finally` below must not stop a per-trial server before its script ends.
      return await this.#script(connection, plan.calls, ctx, {
        ...(server === undefined ? {} : { mcp_server: { name: server.name, version: server.version } }),
      });
    } catch (error) {
      // A bug here must not take the run down: the trial records it instead.
      return failure(`MCP adapter error: ${errorMessage(error)}`, 'agent', started);
    } finally {
      if (own?.ok === true) await closeConnection(own);
    }
  }

  /** Makes the calls in order on one connection, stopping at the first that fails. */
  async #script(
    connection: McpConnection & { ok: true },
    calls: readonly PlannedCall[],
    ctx: TrialContext,
    metadata: Record<string, unknown>,
  ): Promise<AgentOutput> {
    const started = performance.now();
    let knownTools = this.#toolLists.get(connection);
    if (knownTools === undefined) {
      knownTools = toolLister(connection.client);
      this.#toolLists.set(connection, knownTools);
    }
    const made: ToolCall[] = [];
    let last: ToolCallOutcome | undefined;
    for (const [i, call] of calls.entries()) {
      last = await callMcpTool({
        client: connection.client,
        tool: call.tool,
        args: call.args,
        signal: ctx.signal,
        knownTools,
        lost: () => {
          const lost = describeLostServer(connection.transport, this.options);
          if (lost === undefined) return undefined;
          if (this.options.lifecycle !== 'trial') this.#forget(connection);
          return { message: this.#restartNote(lost), kind: 'crash' };
        },
      });
      made.push(last.call);
      if (last.error !== undefined) {
        const step = calls.length > 1 ? `step ${i + 1} of ${calls.length}: ` : '';
        last = { ...last, error: `${step}${last.error}` };
        break;
      }
    }
    return agentOutput({
      output: last?.output ?? null,
      structured: last?.structured,
      error: last?.error,
      error_kind: last?.error_kind,
      tool_calls: made,
      latency: (performance.now() - started) / 1000,
      metadata,
    });
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
    if (this.options.lifecycle === 'trial') return lost;
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
    if (connection.ok) await closeConnection(connection);
  }
}

/** Closes the client and stops the server process (its whole process group). */
async function closeConnection(connection: McpConnection & { ok: true }): Promise<void> {
  await connection.client.close().catch(() => {});
  await connection.transport.close().catch(() => {});
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
