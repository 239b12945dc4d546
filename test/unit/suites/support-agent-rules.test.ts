/** The scripted support agent's reading rules (suites/support/harness/read-ticket.ts) on the suite's tickets. */
import { describe, expect, it } from 'vitest';
import { loadDeskData } from '../../../examples/support-desk/desk.ts';
import {
  affectedItems,
  classifyRequest,
  readPolicy,
  spokenDate,
} from '../../../suites/support/harness/read-ticket.ts';

const { data, policyText } = await loadDeskData();
const ticket = (id: string) => data.tickets.find((t) => t.ticket_id === id)!;
const order = (id: string) => data.orders.find((o) => o.order_id === id)!;
const message = (id: string) => ticket(id).messages[0]!.text;

describe('the scripted support agent reads', () => {
  it('the policy figures from the policy document', () => {
    expect(readPolicy(policyText)).toEqual({
      windowDays: 30,
      agentLimit: 200,
      arrival: '5-7',
      billingAnswerDays: '2',
    });
    expect(() => readPolicy('Refunds are at our discretion.')).toThrow(
      'the policy does not say the refund window',
    );
  });

  it.each([
    ['T-1001', 'damaged'],
    ['T-1002', 'damaged'],
    ['T-1003', 'change_of_mind'],
    ['T-1004', 'damaged'],
    ['T-1005', 'refund_status'],
    ['T-1006', 'order_status'],
  ])('what %s asks for: %s', (id, request) => {
    expect(classifyRequest(message(id))).toBe(request);
  });

  it('which items are damaged and how many, leaving out those the customer says are fine', () => {
    expect(affectedItems(message('T-1001'), order('O-5001').items)).toEqual([
      { sku: 'MUG-AUR', quantity: 1 },
    ]);
    expect(affectedItems(message('T-1002'), order('O-5002').items)).toEqual([{ sku: 'GLS-6', quantity: 2 }]);
    expect(affectedItems(message('T-1004'), order('O-5004').items)).toEqual([{ sku: 'ESP-9', quantity: 1 }]);
    expect(affectedItems('Everything arrived fine, thanks.', order('O-5002').items)).toEqual([]);
    // A count above what was ordered is capped at the order's quantity.
    expect(affectedItems('Six glasses are cracked.', order('O-5002').items)).toEqual([
      { sku: 'GLS-6', quantity: 4 },
    ]);
  });

  it('dates the way customers write them', () => {
    expect(spokenDate('2026-10-09')).toBe('9 October');
    expect(spokenDate('2026-11-26')).toBe('26 November');
  });
});
