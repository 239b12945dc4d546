import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../helpers/run-cli.ts';

// MCP servers tested directly: what they refuse, what they do in a script of calls, and with state.

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-mcp-neg-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Row {
  task_id: string;
  outcome: string;
  output: { error?: string; error_kind?: string; structured?: { pid?: number; count?: number } };
  evaluations: { evaluator: string; passed: boolean; explanation: string }[];
}

async function runJson(file: string, ...flags: string[]): Promise<{ status: number | null; records: Row[] }> {
  const result = await cli(['run', file, '--no-store', '--no-progress', '--reporter', 'json', ...flags]);
  if (result.stdout === '') throw new Error(`no report: ${result.stderr}`);
  return { status: result.status, records: JSON.parse(result.stdout).records };
}

const testServer = (tests: string[]) =>
  [
    'version: "1.0"',
    'name: kinds',
    'agent:',
    '  adapter: mcp',
    '  command: node',
    `  cwd: ${ROOT}`,
    `  args: ["--import", "tsx", "${join(ROOT, 'test/fixtures/mcp/test-server.ts')}"]`,
    'tests:',
    ...tests.map((t) => `  - ${t}`),
    '',
  ].join('\n');

describe('MCP negative tests', () => {
  it('the hello-world example: unknown tools and bad arguments are refused as expected, and pass', async () => {
    const result = await cli([
      'run',
      'examples/hello-world/mcp-negative.yaml',
      '--no-store',
      '--no-progress',
    ]);
    expect(result.stderr).not.toMatch(/unknown evaluator|error/i);
    for (const id of ['unknown-tool', 'name-not-a-string', 'name-missing', 'greet-twice'])
      expect(result.stdout).toMatch(new RegExp(`^${id}\\s+PASS\\s+1\\.00`, 'm'));
    expect(result.stdout).toContain('PASS  4/4 passed');
    expect(result.status).toBe(0);
  });

  it('an unexpected refusal is an ERROR of a distinct kind: tool_unknown, tool_invalid_args, tool_error, crash', async () => {
    const file = join(dir, 'kinds.yaml');
    await writeFile(
      file,
      testServer([
        '{ id: unknown, input: { tool: nope, arguments: {} } }',
        '{ id: bad-args, input: { tool: echo, arguments: { text: 7 } } }',
        '{ id: tool-error, input: { tool: fail, arguments: { reason: denied } } }',
        '{ id: crash, input: { tool: crash, arguments: {} } }',
      ]),
    );
    const { records } = await runJson(file, '-j', '1');
    expect(records.map((r) => [r.task_id, r.outcome, r.output.error_kind])).toEqual([
      ['unknown', 'error', 'tool_unknown'],
      ['bad-args', 'error', 'tool_invalid_args'],
      ['tool-error', 'error', 'tool_error'],
      ['crash', 'error', 'crash'],
    ]);
  });

  it('expect_error fails a call that succeeds or fails otherwise, and a timeout stays an ERROR', async () => {
    const file = join(dir, 'expect.yaml');
    const expect_ = (options: string) => `evaluators: [{ name: expect_error, options: ${options} }]`;
    await writeFile(
      file,
      testServer([
        `{ id: succeeded, input: { tool: echo, arguments: { text: hi } }, ${expect_('{ kind: tool_invalid_args }')} }`,
        `{ id: other-kind, input: { tool: fail, arguments: {} }, ${expect_('{ kind: tool_unknown }')} }`,
        `{ id: wrong-words, input: { tool: fail, arguments: { reason: x } }, ${expect_('{ message: "outside the root" }')} }`,
        `{ id: right, input: { tool: fail, arguments: { reason: "outside the root" } }, ${expect_('{ kind: tool_error, pattern: "refused: .*root$" }')} }`,
        `{ id: too-slow, timeout: 1, input: { tool: slow, arguments: { ms: 5000 } }, ${expect_('{}')} }`,
      ]),
    );
    const { records } = await runJson(file, '-j', '1');
    expect(records.map((r) => [r.task_id, r.outcome])).toEqual([
      ['succeeded', 'fail'],
      ['other-kind', 'fail'],
      ['wrong-words', 'fail'],
      ['right', 'pass'],
      ['too-slow', 'error'],
    ]);
    expect(records[0]?.evaluations[0]?.explanation).toMatch(
      /the call succeeded; expected an error \(tool_invalid_args\)/,
    );
    expect(records[1]?.evaluations[0]?.explanation).toMatch(/the error is tool_error, expected tool_unknown/);
  });

  it('validate checks expect_error like run: an unknown kind is located', async () => {
    const file = join(dir, 'bad-kind.yaml');
    await writeFile(
      file,
      testServer([
        `{ id: x, input: { tool: echo, arguments: { text: a } }, evaluators: [{ name: expect_error, options: { kind: refused } }] }`,
      ]),
    );
    const result = await cli(['validate', file]);
    expect(result.stderr).toMatch(/bad-kind\.yaml:\d+:\d+: tests\[0\]\.evaluators\[0\]\.options\.kind/);
    expect(result.status).toBe(1);
  });
});

describe('scripted, stateful MCP tasks', () => {
  const bench = join(ROOT, 'test/fixtures/mcp/memory-bench.yaml');

  it('lifecycle trial: each trial has its own server, so concurrent trials do not see each other', async () => {
    const { status, records } = await runJson(bench, '-j', '4');
    expect(records.map((r) => [r.task_id, r.outcome])).toEqual([
      ['remember-then-count', 'pass'],
      ['remember-then-recall', 'pass'],
      ['recall-unknown-is-denied', 'pass'],
      ['count-alone-1', 'pass'],
      ['count-alone-2', 'pass'],
      ['count-alone-3', 'pass'],
    ]);
    const pids = records.filter((r) => r.task_id.startsWith('count')).map((r) => r.output.structured?.pid);
    expect(new Set(pids).size).toBe(3);
    expect(status).toBe(0);
  });

  it('lifecycle run: one server carries its state from trial to trial', async () => {
    const shared = join(dir, 'memory-shared.yaml');
    const text = (await readFile(bench, 'utf8'))
      .replace('\n  lifecycle: trial\n', '\n  lifecycle: run\n')
      .replaceAll('./memory-server.ts', join(ROOT, 'test/fixtures/mcp/memory-server.ts'));
    await writeFile(shared, `${text.replace('  command: node', `  command: node\n  cwd: ${ROOT}`)}`);
    const { records } = await runJson(shared, '-j', '1');
    const counts = records.filter((r) => r.task_id.startsWith('count')).map((r) => r.output.structured);
    expect(counts.map((c) => c?.count)).toEqual([3, 3, 3]); // a, b and k from the earlier trials
    expect(new Set(counts.map((c) => c?.pid)).size).toBe(1);
  });
});
