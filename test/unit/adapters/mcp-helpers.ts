import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { adapterOptionSchemas } from '../../../src/adapters/catalog.ts';
import { mcpAdapter } from '../../../src/adapters/mcp.ts';
import type { AdapterEnvironment, AgentV1, TrialContext } from '../../../src/adapters/types.ts';
import { HarnessConfigSchema } from '../../../src/core/harness-config.ts';
import { type TaskInput, TaskSchema } from '../../../src/core/task.ts';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const helloWorldDir = path.join(repoRoot, 'examples/hello-world');
export const fixturesDir = path.join(repoRoot, 'test/fixtures/mcp');

export function environment(overrides: Partial<AdapterEnvironment> = {}): AdapterEnvironment {
  return {
    baseDir: repoRoot,
    harness: HarnessConfigSchema.parse({ adapter: 'mcp' }),
    env: process.env,
    ...overrides,
  };
}

export function trial(input: TaskInput, signal: AbortSignal = new AbortController().signal): TrialContext {
  return {
    task: TaskSchema.parse({ id: 'mcp-test', input }),
    epoch: 0,
    trialId: 'mcp-test#0',
    signal,
    env: {},
  };
}

export type McpOptionsInput = z.input<typeof adapterOptionSchemas.mcp>;

/** Creates the adapter from options written as they would be in a file (defaults applied). */
export async function createMcpAgent(
  raw: McpOptionsInput,
  env: AdapterEnvironment = environment(),
): Promise<AgentV1> {
  return mcpAdapter.create(adapterOptionSchemas.mcp.parse(raw), env);
}

/** Options that start the test-only server in test/fixtures/mcp. */
export const testServer: McpOptionsInput = {
  command: 'node',
  args: ['--import', 'tsx', './test-server.ts'],
  cwd: 'test/fixtures/mcp',
};

/** Options that start the hello-world example over stdio, the way the README shows. */
export const helloWorldServer: McpOptionsInput = {
  command: 'node',
  args: ['--import', 'tsx', './server.ts'],
  cwd: 'examples/hello-world',
};

/** Starts an MCP server (`node ARGV...`) that prints `listening on URL` on stderr; returns its URL. */
export async function startHttpMcpServer(
  argv: readonly string[],
  cwd?: string,
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...argv], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
  return { url, child };
}

/** Runs `node ARGV...` to its exit; for servers that must refuse their arguments. */
export async function exitOf(
  argv: readonly string[],
  cwd?: string,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [...argv], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr };
}

/** Starts the hello-world server in HTTP mode on a free port and returns its URL. */
export function startHttpHelloWorld(): Promise<{ url: string; child: ChildProcess }> {
  return startHttpMcpServer(['--import', 'tsx', './server.ts', '--http', '--port', '0'], helloWorldDir);
}

/** True while the process runs; a zombie (killed, not yet reaped by an orphan-adopting init) is dead. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return true; // No /proc (macOS): signal 0 succeeding is the best answer there is.
  }
}
