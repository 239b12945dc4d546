import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../core/errors.ts';
import type { AdapterOptions } from './catalog.ts';
import { ChildProcessTransport, type StdioServerSpec } from './mcp-stdio-transport.ts';
import type { AdapterEnvironment } from './types.ts';

/** A live connection, or why there is none (the same reason for every trial of the run). */
export type McpConnection =
  | { readonly ok: true; readonly client: Client; readonly transport: Transport }
  | { readonly ok: false; readonly message: string };

type McpOptions = AdapterOptions<'mcp'>;

/** Parent variables a server always gets; anything else must be listed in `env`. */
const INHERITED_ENV = process.platform === 'win32' ? ['PATH', 'SystemRoot', 'TEMP'] : ['PATH', 'HOME'];

/** `${NAME}` in an `env` value is taken from HarnessEval's environment (never stored). */
function expandEnv(value: string, parentEnv: NodeJS.ProcessEnv): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => parentEnv[name] ?? '');
}

/** The argv, folder and environment of a stdio server, with paths resolved against `baseDir`. */
export function stdioServerSpec(
  options: McpOptions & { command: string },
  environment: AdapterEnvironment,
): StdioServerSpec {
  const cwd = path.resolve(environment.baseDir, options.cwd ?? '.');
  // `./bin/server` is relative to the file that names it; a bare `node` is looked up on PATH.
  const command = /[\\/]/.test(options.command)
    ? path.resolve(environment.baseDir, options.command)
    : options.command;
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV) {
    const value = environment.env[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(options.env)) env[name] = expandEnv(value, environment.env);
  return { command, args: options.args, cwd, env };
}

function describeServer(options: McpOptions): string {
  return options.url ?? [options.command ?? '', ...options.args].join(' ');
}

function describeFailure(error: unknown, transport: Transport, options: McpOptions): string {
  const server = describeServer(options);
  let reason: string;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    reason = `did not answer initialize within ${options.startup_timeout_seconds} s`;
  } else if (transport instanceof ChildProcessTransport && transport.exitStatus !== undefined) {
    reason = `${transport.exitStatus} before it answered initialize`;
  } else if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
    reason = `could not be started: command not found (${error.message})`;
  } else {
    reason = `could not be reached: ${error instanceof Error ? error.message : String(error)}`;
  }
  let message = `MCP server \`${server}\` ${reason}`;
  if (transport instanceof ChildProcessTransport) {
    const tail = transport.stderrTail;
    message += tail === '' ? ' (no stderr output)' : `\n--- server stderr (last 2 KB) ---\n${tail}`;
  }
  return message;
}

/**
 * Starts (stdio) or reaches (HTTP) the server and completes the MCP handshake. Never throws. With a
 * `signal` (a per-trial server) the start is cut short when it fires: the server is stopped before
 * this resolves, so a trial that times out while its server starts leaves no process behind.
 */
export async function connectMcp(
  options: McpOptions,
  environment: AdapterEnvironment,
  signal?: AbortSignal,
): Promise<McpConnection> {
  if (signal?.aborted === true)
    return { ok: false, message: 'the trial was stopped before the MCP server started' };
  let transport: Transport;
  try {
    transport =
      options.command !== undefined
        ? new ChildProcessTransport(stdioServerSpec({ ...options, command: options.command }, environment))
        : new StreamableHTTPClientTransport(new URL(options.url ?? ''));
  } catch (error) {
    return { ok: false, message: `MCP server \`${describeServer(options)}\`: ${errorMessage(error)}` };
  }
  const client = new Client({ name: 'harnesseval', version: '1' });
  // Errors outside a request (a stray stdout line) must not become unhandled rejections.
  client.onerror = () => {};
  const stop = (): void => void transport.close().catch(() => {});
  signal?.addEventListener('abort', stop, { once: true });
  try {
    await client.connect(transport, { timeout: options.startup_timeout_seconds * 1000 });
    return { ok: true, client, transport };
  } catch (error) {
    // Read stderr and the exit status before close() kills the process. A server that exited
    // has already closed its pipes (the SDK rejects on the 'close' event), so the tail is complete.
    const message = describeFailure(error, transport, options);
    if (transport instanceof ChildProcessTransport) await transport.close({ graceful: false });
    await client.close().catch(() => {});
    return { ok: false, message };
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}

/** The message for a call that failed because the server went away mid-run. */
export function describeLostServer(transport: Transport, options: McpOptions): string | undefined {
  if (!(transport instanceof ChildProcessTransport) || transport.exitStatus === undefined) return undefined;
  const tail = transport.stderrTail;
  return (
    `MCP server \`${describeServer(options)}\` ${transport.exitStatus} during the run` +
    (tail === '' ? '' : `\n--- server stderr (last 2 KB) ---\n${tail}`)
  );
}
