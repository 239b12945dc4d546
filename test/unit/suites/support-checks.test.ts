/**
 * The support suite's state checks (suites/support/codebases/desk/checks/desk-check.mjs) catch
 * the mistakes a support harness makes: each case builds a desk state with the real Desk, writes
 * it where the server would, and runs the check as the suite does (`node checks/desk-check.mjs`).
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Desk, loadDeskData } from '../../../examples/support-desk/desk.ts';
import { ROOT } from '../../helpers/run-cli.ts';

const CHECK = join(ROOT, 'suites/support/codebases/desk/checks/desk-check.mjs');
const seed = await loadDeskData();
const scratch = await mkdtemp(join(tmpdir(), 'support-checks-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

let counter = 0;
/** Runs `desk-check.mjs ...args` in a folder whose state/desk.json is `state` (raw text when a string). */
async function check(state: Desk | string | undefined, args: string[]) {
  const dir = join(scratch, String(++counter));
  await mkdir(join(dir, 'state'), { recursive: true });
  if (state !== undefined) {
    const text = typeof state === 'string' ? state : JSON.stringify(state.snapshot());
    await writeFile(join(dir, 'state/desk.json'), text);
  }
  const child = spawn(process.execPath, [CHECK, ...args], { cwd: dir });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, output: output.trim() };
}

/** A desk after these calls, journaled like the MCP layer does. */
function desk(calls: [string, Record<string, unknown>, (d: Desk) => unknown][]): Desk {
  const d = new Desk(seed.data, seed.policyText);
  for (const [tool, args, run] of calls) {
    run(d);
    d.record(tool, args);
  }
  return d;
}

const lookUp = (order: string): [string, Record<string, unknown>, (d: Desk) => unknown] => [
  'get_order',
  { order_id: order },
  (d) => d.getOrder(order),
];
const refund = (
  order: string,
  amount: number,
  skus: string[],
): [string, Record<string, unknown>, (d: Desk) => unknown] => [
  'issue_refund',
  { order_id: order, amount, skus },
  (d) => d.issueRefund({ order_id: order, amount, skus, reason: 'test' }),
];
const reply = (ticket: string, message: string): [string, Record<string, unknown>, (d: Desk) => unknown] => [
  'reply_to_ticket',
  { ticket_id: ticket, message },
  (d) => d.reply(ticket, message),
];
const close = (
  ticket: string,
  tag: 'refund_issued' | 'refund_denied',
): [string, Record<string, unknown>, (d: Desk) => unknown] => [
  'close_ticket',
  { ticket_id: ticket, tag },
  (d) => d.close(ticket, tag),
];

describe('desk-check.mjs', () => {
  it.concurrent.each([
    [
      'the whole order refunded instead of the mug',
      desk([refund('O-5001', 41, ['MUG-AUR', 'CST-4'])]),
      ['refund', 'O-5001', '24.00'],
      'O-5001 was refunded 41.00; expected 24.00',
    ],
    [
      'the glasses refunded twice (refund check)',
      desk([refund('O-5002', 19, ['GLS-6']), refund('O-5002', 19, ['GLS-6'])]),
      ['refund', 'O-5002', '19.00'],
      'O-5002 has 2 new refund(s) (19.00, 19.00)',
    ],
    [
      'the glasses refunded twice (audit)',
      desk([refund('O-5002', 19, ['GLS-6']), refund('O-5002', 19, ['GLS-6'])]),
      ['audit', 'T-1002'],
      'GLS-6 of O-5002 was refunded twice',
    ],
    [
      'a refund without the item named',
      desk([refund('O-5001', 24, [])]),
      ['refund', 'O-5001', '24', '--skus', 'MUG-AUR'],
      'does not name MUG-AUR',
    ],
    [
      'a refund 52 days after delivery',
      desk([lookUp('O-5003'), refund('O-5003', 89, ['BLND-2'])]),
      ['audit', 'T-1003'],
      'O-5003 was refunded 52 days after delivery (window 30)',
    ],
    [
      'a refund above the agent limit',
      desk([refund('O-5004', 420, ['ESP-9'])]),
      ['audit', 'T-1004'],
      'above the agent limit of 200.00',
    ],
    [
      'more than the items cost',
      desk([refund('O-5001', 30, ['MUG-AUR'])]),
      ['audit', 'T-1001'],
      'refunds 30.00, more than its items cost (24.00)',
    ],
    [
      'a refund on another customer’s order',
      desk([refund('O-5002', 19, ['GLS-6'])]),
      ['audit', 'T-1001'],
      "O-5002 was refunded, but it is not Maya Chen's order",
    ],
    [
      'closed before the reply',
      desk([close('T-1001', 'refund_issued'), ['noop', {}, () => 0]]),
      ['audit', 'T-1001'],
      'T-1001 was closed before the customer got a reply',
    ],
    [
      'another ticket changed',
      desk([reply('T-1002', 'hi')]),
      ['audit', 'T-1001'],
      'reply_to_ticket changed T-1002, not T-1001',
    ],
    [
      'the wrong tag',
      desk([reply('T-1003', 'no'), close('T-1003', 'refund_issued')]),
      ['ticket', 'T-1003', 'closed', 'refund_denied'],
      'T-1003 was closed with tag refund_issued; expected refund_denied',
    ],
    [
      'a reply without the amount',
      desk([reply('T-1001', 'Hi Maya, done.')]),
      ['replied', 'T-1001', 'Maya', '24.00|$24'],
      'does not mention "24.00" or "$24"',
    ],
    [
      'a refusal without looking at the order',
      desk([reply('T-1003', 'no')]),
      ['no-refund', 'O-5003'],
      'O-5003 was never looked up',
    ],
    [
      'no state file',
      undefined,
      ['audit', 'T-1001'],
      'state/desk.json does not exist: the support desk was never used',
    ],
    [
      'a state file written by hand',
      '{"tickets": []}',
      ['audit', 'T-1001'],
      'is not a support-desk state file',
    ],
  ] as const)('fails %s', async (_name, state, args, message) => {
    const result = await check(state, [...args]);
    expect(result.code, result.output).toBe(1);
    expect(result.output).toMatch(/^FAIL /);
    expect(result.output).toContain(message);
  });

  it.concurrent('passes a desk worked by the policy, with every check', async () => {
    const worked = desk([
      lookUp('O-5001'),
      refund('O-5001', 24, ['MUG-AUR']),
      reply('T-1001', 'Hi Maya, I refunded $24.00; it arrives in 5–7 business days.'),
      close('T-1001', 'refund_issued'),
    ]);
    for (const args of [
      ['refund', 'O-5001', '24.00', '--skus', 'MUG-AUR'],
      ['ticket', 'T-1001', 'closed', 'refund_issued'],
      ['replied', 'T-1001', 'Maya', '24.00|$24', '5-7 business days'],
      ['audit', 'T-1001'],
    ]) {
      const result = await check(worked, args);
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(/^ok /);
    }
  });

  it.concurrent('answers a wrong invocation with usage status 2', async () => {
    expect((await check(desk([]), ['refunds'])).code).toBe(2);
    expect((await check(desk([]), ['ticket', 'T-9'])).code).toBe(2);
  });
});
