import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GreetingSchema } from '../../examples/hello-world/greeting.ts';
import { startHttpHelloWorld } from '../unit/adapters/mcp-helpers.ts';

const helloWorldDir = fileURLToPath(new URL('../../examples/hello-world/', import.meta.url));
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

async function greetThrough(client: Client, name: unknown) {
  const raw = await client.callTool({ name: 'hello_world', arguments: { name } });
  const result = CallToolResultSchema.parse(raw);
  const text = result.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  return { text, result, structured: GreetingSchema.safeParse(result.structuredContent) };
}

describe('hello-world server over stdio (a real child process)', () => {
  const client = new Client({ name: 'hello-world-test', version: '1' });
  beforeAll(async () => {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', './server.ts'],
        cwd: helloWorldDir,
        stderr: 'pipe',
      }),
    );
  });
  afterAll(async () => {
    await client.close();
  });

  it('lists hello_world with input and output schemas', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'hello_world');
    expect(tool?.inputSchema.required).toEqual(['name']);
    expect(Object.keys(tool?.outputSchema?.properties ?? {}).sort()).toEqual([
      'greeting',
      'name',
      'timestamp',
      'truncated',
    ]);
    expect(client.getServerVersion()).toMatchObject({ name: 'hello-world' });
  });

  it('greets a name with text and structuredContent, timestamp in ISO 8601', async () => {
    const before = Date.now();
    const { text, structured } = await greetThrough(client, 'Ada');
    expect(text).toBe('Hello, Ada!');
    expect(structured.success).toBe(true);
    expect(structured.data).toMatchObject({ greeting: 'Hello, Ada!', name: 'Ada', truncated: false });
    expect(structured.data?.timestamp).toMatch(ISO_8601);
    expect(Date.parse(structured.data?.timestamp ?? '')).toBeGreaterThanOrEqual(before - 1000);
  });

  it.each([
    ['', 'Hello!', ''],
    ['   ', 'Hello!', ''],
    ['Zoe\u0308', 'Hello, Zo\u00eb!', 'Zo\u00eb'],
    ['山田花子', 'Hello, 山田花子!', '山田花子'],
    ['<b>Tom & "Jerry"</b>', 'Hello, <b>Tom & "Jerry"</b>!', '<b>Tom & "Jerry"</b>'],
  ])('greets %j as %j', async (name, greeting, greeted) => {
    const { text, structured } = await greetThrough(client, name);
    expect(text).toBe(greeting);
    expect(structured.data).toMatchObject({ greeting, name: greeted, truncated: false });
  });

  it('cuts a name longer than 64 code points and flags it', async () => {
    const { text, structured } = await greetThrough(client, 'x'.repeat(100));
    expect(text).toBe(`Hello, ${'x'.repeat(64)}!`);
    expect(structured.data).toMatchObject({ name: 'x'.repeat(64), truncated: true });
  });

  it('rejects a call without a string name as a tool error', async () => {
    const { result } = await greetThrough(client, 42);
    expect(result.isError).toBe(true);
  });
});

describe('hello-world server over streamable HTTP', () => {
  it('binds to 127.0.0.1, prints its port, and answers the SDK client', async () => {
    const { url, child } = await startHttpHelloWorld();
    expect(new URL(url).hostname).toBe('127.0.0.1');
    const client = new Client({ name: 'hello-world-test', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const { text, structured } = await greetThrough(client, 'Grace');
      expect(text).toBe('Hello, Grace!');
      expect(structured.data?.name).toBe('Grace');
      const other = await fetch(new URL('/elsewhere', url));
      expect(other.status).toBe(404);
    } finally {
      await client.close();
      child.kill('SIGTERM');
    }
  });

  it('refuses a bad --port with usage status 2', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', './server.ts', '--http', '--port', 'abc'], {
      cwd: helloWorldDir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('bad --port abc');
  });
});

const EvalCaseLine = z.object({
  schema_version: z.literal('v0'),
  case_id: z.string().regex(/^[a-z0-9][a-z0-9_-]{2,63}$/),
  prompt: z.string().min(1),
  tool_name: z.literal('hello_world'),
  expected_output_type: z.enum(['exact', 'regex', 'jsonpath']),
  expected_output: z.string().nullable().optional(),
  difficulty: z.enum(['easy', 'medium', 'hard']),
  provenance: z.object({ author: z.literal('harnesseval'), source_type: z.string() }),
  version: z.number().int().min(1),
  tags: z.array(z.string()).min(1),
});

describe('the hello-world v0 dataset', () => {
  const file = path.join(helloWorldDir, 'datasets/hello-world-v0.jsonl');
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const cases = lines.map((line) => EvalCaseLine.parse(JSON.parse(line)));

  it('has 25 cases: 10 easy, 8 medium, 7 hard, with unique ids', () => {
    expect(cases).toHaveLength(25);
    const count = (d: string) => cases.filter((c) => c.difficulty === d).length;
    expect([count('easy'), count('medium'), count('hard')]).toEqual([10, 8, 7]);
    expect(new Set(cases.map((c) => c.case_id)).size).toBe(25);
  });

  it('uses exact, regex and jsonpath, with an expectation wherever one is required', () => {
    expect(new Set(cases.map((c) => c.expected_output_type))).toEqual(
      new Set(['exact', 'regex', 'jsonpath']),
    );
    for (const c of cases.filter((c) => c.expected_output_type !== 'exact')) {
      expect(typeof c.expected_output, c.case_id).toBe('string');
    }
    for (const c of cases.filter((c) => c.expected_output_type === 'regex')) {
      expect(() => new RegExp(c.expected_output ?? ''), c.case_id).not.toThrow();
    }
  });
});
