/**
 * The support-desk MCP server (examples/support-desk) as a harness sees it: a real child process
 * over stdio and over streamable HTTP, through the SDK client. State is per process (stdio) and
 * per session (HTTP), and lands in the state file the suite's checks read.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeskStateSchema } from '../../examples/support-desk/desk-schema.ts';
import { ROOT } from '../helpers/run-cli.ts';
import { exitOf, startHttpMcpServer } from '../unit/adapters/mcp-helpers.ts';

const SERVER = join(ROOT, 'examples/support-desk/server.ts');
const TSX = import.meta.resolve('tsx');

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = CallToolResultSchema.parse(await client.callTool({ name, arguments: args }));
  const text = result.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  return { error: result.isError === true, text, value: result.structuredContent as Record<string, unknown> };
}

const readState = async (file: string) => DeskStateSchema.parse(JSON.parse(await readFile(file, 'utf8')));

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'support-desk-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('support desk over stdio', () => {
  const client = new Client({ name: 'support-desk-test', version: '1' });
  let stateFile: string;
  beforeAll(async () => {
    stateFile = join(scratch, 'stdio/state/desk.json');
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', TSX, SERVER, '--state', stateFile],
        stderr: 'pipe',
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await client.close();
  });

  it('offers the nine tools and the policy as a resource', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'close_ticket',
      'escalate_ticket',
      'find_orders',
      'get_order',
      'get_policy',
      'get_ticket',
      'issue_refund',
      'list_tickets',
      'reply_to_ticket',
    ]);
    const policy = await client.readResource({ uri: 'support-desk://policy' });
    expect(JSON.stringify(policy.contents)).toContain('Your limit is $200.00 per order');
  });

  it('refunds what is left to refund and refuses more, as a payment system would', async () => {
    const refund = await call(client, 'issue_refund', {
      order_id: 'O-5001',
      amount: 24,
      skus: ['MUG-AUR'],
      reason: 'broken',
    });
    expect(refund).toMatchObject({ error: false, value: { refund_id: 'R-7101', amount: 24 } });
    const tooMuch = await call(client, 'issue_refund', { order_id: 'O-5001', amount: 30, reason: 'x' });
    expect(tooMuch).toMatchObject({
      error: true,
      text: 'order O-5001 has 17.00 left to refund, less than 30.00',
    });
    expect(
      await call(client, 'issue_refund', { order_id: 'O-5001', amount: 1.234, reason: 'x' }),
    ).toMatchObject({
      error: true,
      text: 'amount 1.234 has more than two decimals',
    });
    expect((await call(client, 'get_order', { order_id: 'O-9999' })).text).toBe('no order O-9999');
  });

  it('closes a ticket once, with a tag from the list', async () => {
    expect((await call(client, 'close_ticket', { ticket_id: 'T-1003', tag: 'sorted' })).error).toBe(true);
    expect((await call(client, 'close_ticket', { ticket_id: 'T-1003', tag: 'refund_denied' })).error).toBe(
      false,
    );
    expect(await call(client, 'reply_to_ticket', { ticket_id: 'T-1003', message: 'late' })).toMatchObject({
      error: true,
      text: 'ticket T-1003 is closed',
    });
  });

  it('writes every call, refused ones too, to the state file in order', async () => {
    const state = await readState(stateFile);
    expect(state.journal.map((e) => [e.tool, e.outcome])).toEqual([
      ['issue_refund', 'ok'],
      ['issue_refund', 'error'],
      ['issue_refund', 'error'],
      ['get_order', 'error'],
      ['close_ticket', 'ok'],
      ['reply_to_ticket', 'error'],
    ]);
    expect(state.seed_refund_ids).toEqual(['R-7001']);
    expect(state.orders.find((o) => o.order_id === 'O-5001')?.refunds.map((r) => r.amount)).toEqual([24]);
    expect(state.tickets.find((t) => t.ticket_id === 'T-1003')).toMatchObject({
      status: 'closed',
      tag: 'refund_denied',
    });
  });
});

const startHttp = (args: string[]) =>
  startHttpMcpServer(['--import', TSX, SERVER, '--http', '--port', '0', ...args]);

describe('support desk over streamable HTTP', () => {
  it('gives each session its own desk and its own state file', async () => {
    const stateDir = join(scratch, 'http-state');
    const { url, child } = await startHttp(['--state-dir', stateDir]);
    const first = new Client({ name: 'a', version: '1' });
    const second = new Client({ name: 'b', version: '1' });
    try {
      expect(new URL(url).hostname).toBe('127.0.0.1');
      await first.connect(new StreamableHTTPClientTransport(new URL(url)));
      await second.connect(new StreamableHTTPClientTransport(new URL(url)));
      const refund = await call(first, 'issue_refund', {
        order_id: 'O-5002',
        amount: 19,
        skus: ['GLS-6'],
        reason: 'cracked',
      });
      expect(refund.error).toBe(false);
      const seenByOther = await call(second, 'get_order', { order_id: 'O-5002' });
      expect(seenByOther.value['refunds']).toEqual([]);
      const files = (await readdir(stateDir)).filter((f) => f.endsWith('.json'));
      expect(files).toHaveLength(2);
      const states = await Promise.all(files.map((f) => readState(join(stateDir, f))));
      expect(states.map((s) => s.journal.map((e) => e.tool)).sort()).toEqual([
        ['get_order'],
        ['issue_refund'],
      ]);
      expect((await fetch(new URL('/elsewhere', url))).status).toBe(404);
      const noSession = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(noSession.status).toBe(400);
    } finally {
      await Promise.allSettled([first.close(), second.close()]);
      child.kill('SIGTERM');
    }
  }, 60_000);

  it.concurrent.each([
    [['--http', '--state', 'x.json'], 'over --http each session has its own state: use --state-dir'],
    [['--state-dir', 'x'], '--port and --state-dir need --http'],
    [['--http', '--port', 'abc'], 'bad --port abc'],
  ])('refuses %j with usage status 2', async (args, message) => {
    const { code, stderr } = await exitOf(['--import', TSX, SERVER, ...args]);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});
