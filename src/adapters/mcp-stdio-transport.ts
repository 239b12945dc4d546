import { type ChildProcess, spawn } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { endEscapees, newProcessTag, tagEnv, trackChildGroup } from '../util/child-groups.ts';

/** How an MCP server is started: an argv run without a shell, with exactly this environment. */
export interface StdioServerSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The child's whole environment: nothing of the parent's is added to it. */
  readonly env: Readonly<Record<string, string>>;
}

/** Bytes of the server's stderr kept for error messages. */
export const STDERR_TAIL_BYTES = 2048;
const GRACE_MS = 2000;

/**
 * A stdio client transport that, unlike the SDK's `StdioClientTransport`, passes the child only
 * the environment it is given (the SDK adds LOGNAME, SHELL, TERM and USER), keeps the tail of
 * its stderr and its exit status for messages, and kills the server's whole process group on close.
 */
export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  #child: ChildProcess | undefined;
  #exited: Promise<void> | undefined;
  #stderr: Buffer = Buffer.alloc(0);
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly #readBuffer = new ReadBuffer();
  readonly #tag = newProcessTag();
  #untrack: () => void = () => {};

  constructor(readonly spec: StdioServerSpec) {}

  /** The last ~2 KB the server wrote to stderr. */
  get stderrTail(): string {
    return this.#stderr.toString('utf8').trim();
  }

  /** How the server ended, once it has. */
  get exitStatus(): string | undefined {
    if (this.#exit === undefined) return undefined;
    return this.#exit.signal === null
      ? `exited with code ${this.#exit.code}`
      : `killed by ${this.#exit.signal}`;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    if (this.#child !== undefined) return Promise.reject(new Error('transport already started'));
    return new Promise((resolve, reject) => {
      const child = spawn(this.spec.command, [...this.spec.args], {
        cwd: this.spec.cwd,
        env: { ...this.spec.env, ...tagEnv(this.#tag) },
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        // Its own process group on POSIX, so close() can kill whatever the server started too.
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
      this.#child = child;
      this.#exited = new Promise((done) => child.once('close', () => done()));
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) this.#untrack = trackChildGroup(child.pid, this.#tag);
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
      });
      child.once('close', () => this.onclose?.());
      child.stderr?.on('data', (chunk: Buffer) => {
        const joined = Buffer.concat([this.#stderr, chunk]);
        this.#stderr = joined.subarray(Math.max(0, joined.length - STDERR_TAIL_BYTES));
      });
      child.stdout?.on('data', (chunk: Buffer) => {
        this.#readBuffer.append(chunk);
        this.#drain();
      });
      // A server that dies while we write must not crash the harness with EPIPE.
      child.stdin?.on('error', (error) => this.onerror?.(error));
    });
  }

  #drain(): void {
    for (;;) {
      try {
        const message = this.#readBuffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        // A line that is not JSON-RPC (e.g. a stray console.log) is reported, not fatal.
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (stdin === undefined || stdin === null || this.#exit !== undefined || !stdin.writable) {
      return Promise.reject(new Error('MCP server is not running'));
    }
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /**
   * Ends stdin, then SIGTERM and SIGKILL to the process group if the server lingers. With
   * `graceful: false` (a server that failed to start) the SIGTERM comes at once.
   */
  async close(options: { graceful?: boolean } = {}): Promise<void> {
    const child = this.#child;
    const exited = this.#exited;
    if (child === undefined || exited === undefined) return;
    if (this.#exit === undefined) {
      child.stdin?.end();
      const graceful = options.graceful ?? true;
      if (!graceful) killGroup(child, 'SIGTERM');
      for (const signal of graceful ? (['SIGTERM', 'SIGKILL'] as const) : (['SIGKILL'] as const)) {
        if (await settlesWithin(exited, GRACE_MS)) break;
        killGroup(child, signal);
      }
    } else {
      // The server is gone; anything it started in its group goes too.
      killGroup(child, 'SIGKILL');
    }
    await settlesWithin(exited, GRACE_MS);
    await endEscapees(this.#tag);
    this.#untrack();
    this.#readBuffer.clear();
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (process.platform !== 'win32' && child.pid !== undefined) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // Already gone.
  }
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
