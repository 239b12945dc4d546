/**
 * A connection to the support-desk MCP server for one trial, shared by the suite's harnesses:
 * examples/support-desk/server.ts started over stdio in the trial's workspace (so the state file
 * lands there, where the checks read it), or the same server in this process; every tool call is
 * recorded for the run record.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Desk, loadDeskData } from '../../../examples/support-desk/desk.ts';
import { stateWriter } from '../../../examples/support-desk/state-file.ts';
import { createSupportDeskServer } from '../../../examples/support-desk/tools.ts';
import type { ToolCall } from '../../../src/core/agent-output.ts';

const SERVER = fileURLToPath(new URL('../../../examples/support-desk/server.ts', import.meta.url));
/** tsx by file URL: the workspace is a temporary folder, where a bare `--import tsx` may not resolve. */
const TSX = import.meta.resolve('tsx');
/** Where the server writes its state, relative to the workspace; the checks read it there. */
export const STATE_FILE = 'state/desk.json';
/** The trial's signal ends a call, not the SDK's 60 s default. */
const NO_REQUEST_TIMEOUT_MS = 2_147_483_647;

export type CallOutcome = { ok: true; value: unknown } | { ok: false; message: string };

export class DeskSession {
  readonly calls: ToolCall[] = [];

  private constructor(
    private readonly client: Client,
    private readonly signal: AbortSignal,
  ) {}

  /** Starts the server as a child process (stdio) in `workspace` and completes the MCP handshake. */
  static async open(workspace: string, signal: AbortSignal): Promise<DeskSession> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', TSX, SERVER, '--state', STATE_FILE],
      cwd: workspace,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'support-suite-harness', version: '1.0.0' });
    await client.connect(transport, { signal, timeout: 60_000 });
    return new DeskSession(client, signal);
  }

  /**
   * The same server code in this process, linked by an in-memory transport: the MCP protocol and
   * the state file are the same, without a process start (about a second of CPU) per trial.
   */
  static async inProcess(workspace: string, signal: AbortSignal): Promise<DeskSession> {
    const { data, policyText } = await loadDeskData();
    const write = stateWriter(join(workspace, STATE_FILE));
    const desk = new Desk(data, policyText);
    write(desk.snapshot());
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createSupportDeskServer(desk, write).connect(serverSide);
    const client = new Client({ name: 'support-suite-harness', version: '1.0.0' });
    await client.connect(clientSide, { signal, timeout: 60_000 });
    return new DeskSession(client, signal);
  }

  /** Calls a tool; a tool error is an outcome, not an exception. */
  async call(tool: string, args: Record<string, unknown>): Promise<CallOutcome> {
    const started = performance.now();
    const raw = await this.client.callTool({ name: tool, arguments: args }, CallToolResultSchema, {
      signal: this.signal,
      timeout: NO_REQUEST_TIMEOUT_MS,
    });
    const result = CallToolResultSchema.parse(raw);
    const text = result.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
    const failed = result.isError === true;
    this.calls.push({
      tool_name: tool,
      args,
      result: failed ? { error: text } : result.structuredContent,
      duration: (performance.now() - started) / 1000,
      status: failed ? 'error' : 'success',
    });
    return failed ? { ok: false, message: text } : { ok: true, value: result.structuredContent };
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
