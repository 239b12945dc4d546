/**
 * The reference agent for the hello-world example: it reads a name from the prompt, calls the
 * `hello_world` tool of ./server.ts over MCP (stdio) with the SDK client, and reports the call.
 * Used by the `function` adapter: `module: "./agent.ts#helloAgent"`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { AgentOutputDraft, TaskInput, TrialContext } from 'harnesseval/plugin';
import { nameFromPrompt } from './prompt-name.ts';

export { nameFromPrompt } from './prompt-name.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const STDERR_TAIL_CHARS = 2048;
/** The trial's signal ends a call, not the SDK's 60 s default. */
const NO_REQUEST_TIMEOUT_MS = 2_147_483_647;

interface Connection {
  readonly client: Client;
  readonly transport: StdioClientTransport;
}

let connection: Promise<Connection> | undefined;
let serverStderr = '';
/** Kept outside the promise so the synchronous 'exit' handler can reach it. */
let serverPid: number | null = null;

/** One server and connection per process, started by the first call. */
function connect(): Promise<Connection> {
  connection ??= (async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', path.join(here, 'server.ts')],
      cwd: here,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      serverStderr = (serverStderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    const client = new Client({ name: 'hello-world-reference-agent', version: '1.0.0' });
    // A server that goes away is started afresh by the next call.
    client.onclose = () => {
      connection = undefined;
    };
    await client.connect(transport, { timeout: 30_000 });
    serverPid = transport.pid;
    return { client, transport };
  })();
  connection.catch(() => {
    connection = undefined;
  });
  return connection;
}

/** Closes the shared connection and stops the server. Safe to call more than once. */
export async function close(): Promise<void> {
  const pending = connection;
  connection = undefined;
  if (pending === undefined) return;
  const live = await pending.catch(() => undefined);
  await live?.client.close();
  serverPid = null;
}

// A process that exits without close() must not leave the server behind.
process.once('exit', () => {
  if (serverPid === null) return;
  try {
    process.kill(serverPid);
  } catch {
    // Already gone.
  }
});

function promptOf(input: TaskInput): string | undefined {
  if (typeof input === 'string') return input;
  return typeof input.prompt === 'string' ? input.prompt : undefined;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Greets whoever the prompt names, through the MCP server. Never throws. */
export async function helloAgent(input: TaskInput, context: TrialContext): Promise<AgentOutputDraft> {
  const started = performance.now();
  const latency = () => (performance.now() - started) / 1000;
  const prompt = promptOf(input);
  const parsed =
    prompt === undefined
      ? { ok: false as const, reason: 'the input has no prompt text' }
      : nameFromPrompt(prompt);
  if (!parsed.ok) {
    return {
      output: null,
      error: `cannot tell who to greet: ${parsed.reason}`,
      error_kind: 'agent',
      latency: latency(),
    };
  }
  let live: Connection;
  try {
    live = await connect();
  } catch (error) {
    const tail = serverStderr.trim();
    return {
      output: null,
      error: `hello-world server did not start: ${message(error)}${tail === '' ? '' : `\n${tail}`}`,
      error_kind: 'config',
      latency: latency(),
    };
  }
  const args = { name: parsed.name };
  const callStarted = performance.now();
  try {
    const result = CallToolResultSchema.parse(
      await live.client.callTool({ name: 'hello_world', arguments: args }, CallToolResultSchema, {
        signal: context.signal,
        timeout: NO_REQUEST_TIMEOUT_MS,
      }),
    );
    const text = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    const failed = result.isError === true;
    return {
      output: text,
      structured: result.structuredContent,
      tool_calls: [
        {
          tool_name: 'hello_world',
          args,
          result: { content: result.content, structuredContent: result.structuredContent },
          duration: (performance.now() - callStarted) / 1000,
          status: failed ? 'error' : 'success',
        },
      ],
      latency: latency(),
      ...(failed ? { error: `hello_world returned an error: ${text}`, error_kind: 'agent' as const } : {}),
    };
  } catch (error) {
    const aborted = context.signal.aborted;
    const reason: unknown = context.signal.reason;
    const timedOut = reason instanceof Error && reason.name === 'TimeoutError';
    return {
      output: null,
      tool_calls: [
        {
          tool_name: 'hello_world',
          args,
          result: { error: message(error) },
          duration: (performance.now() - callStarted) / 1000,
          status: 'error',
        },
      ],
      error: aborted
        ? 'the trial was stopped during the hello_world call'
        : `hello_world failed: ${message(error)}`,
      error_kind: aborted ? (timedOut ? 'timeout' : 'aborted') : 'agent',
      latency: latency(),
    };
  }
}
