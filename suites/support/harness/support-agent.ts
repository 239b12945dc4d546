/**
 * The scripted support agent: a deterministic harness that works a ticket the way an LLM agent
 * would, through the support-desk MCP server — read the ticket, find the order, read the policy,
 * decide, act, reply, close or escalate — with rules in place of a model (./read-ticket.ts).
 * `module: ./support-agent.ts#supportAgent` (function adapter); tested end to end in
 * test/integration/support-suite.test.ts.
 */

import type { Order, Ticket } from '../../../examples/support-desk/desk-schema.ts';
import type { FunctionAgentContext } from '../../../src/adapters/function.ts';
import type { AgentOutputDraft } from '../../../src/core/agent-output.ts';
import { type CallOutcome, DeskSession } from './desk-session.ts';
import {
  affectedItems,
  classifyRequest,
  daysBetween,
  dollars,
  type PolicyNumbers,
  readPolicy,
  spokenDate,
} from './read-ticket.ts';

class Stop extends Error {}

function value<T>(outcome: CallOutcome, what: string): T {
  if (!outcome.ok) throw new Stop(`${what}: ${outcome.message}`);
  return outcome.value as T;
}

interface Case {
  readonly desk: DeskSession;
  readonly ticket: Ticket;
  readonly order: Order;
  readonly policy: PolicyNumbers;
  readonly today: string;
  readonly first: string;
}

/** Finds the order a ticket is about: its own, else the customer's newest one. */
async function orderFor(desk: DeskSession, ticket: Ticket): Promise<Order> {
  let orderId = ticket.order_id;
  if (orderId === null) {
    const found = value<{ items: { order_id: string; placed_on: string }[] }>(
      await desk.call('find_orders', { email: ticket.customer.email }),
      'find_orders',
    ).items;
    const newest = [...found].sort((a, b) => b.placed_on.localeCompare(a.placed_on))[0];
    if (newest === undefined) throw new Stop(`no orders for ${ticket.customer.email}`);
    orderId = newest.order_id;
  }
  return value<Order>(await desk.call('get_order', { order_id: orderId }), 'get_order');
}

async function replyAndClose(c: Case, message: string, tag: string): Promise<void> {
  value(await c.desk.call('reply_to_ticket', { ticket_id: c.ticket.ticket_id, message }), 'reply');
  value(await c.desk.call('close_ticket', { ticket_id: c.ticket.ticket_id, tag }), 'close');
}

async function orderStatus(c: Case): Promise<string> {
  const item = c.order.items.map((i) => i.name.toLowerCase()).join(' and ');
  const shipped = c.order.shipped_on === null ? '' : ` shipped on ${spokenDate(c.order.shipped_on)}`;
  await replyAndClose(
    c,
    `Hi ${c.first}, I found it: your ${item} (order ${c.order.order_id})${shipped} with ${c.order.carrier}. ` +
      `The tracking number is ${c.order.tracking_number}, so you can follow it on their website.`,
    'order_status',
  );
  return `gave the tracking number of ${c.order.order_id}`;
}

async function deny(c: Case, reason: string): Promise<string> {
  await replyAndClose(
    c,
    `Hi ${c.first}, thank you for getting in touch. ${reason} I'm sorry I can't help further with a refund.`,
    'refund_denied',
  );
  return `refused a refund on ${c.order.order_id}`;
}

async function alreadyRefunded(c: Case): Promise<string> {
  const refund = c.order.refunds.at(-1);
  if (refund === undefined) throw new Stop(`${c.order.order_id} has no refund yet`);
  await replyAndClose(
    c,
    `Hi ${c.first}, I understand how frustrating the wait is. Your refund ${refund.refund_id} of ` +
      `${dollars(refund.amount)} was issued on ${spokenDate(refund.issued_on)}. Refunds reach the card in ` +
      `${c.policy.arrival} business days, so it should appear very soon.`,
    'already_refunded',
  );
  return `pointed to the existing refund ${refund.refund_id}`;
}

async function damaged(c: Case, message: string): Promise<string> {
  const affected = affectedItems(message, c.order.items);
  if (affected.length === 0) throw new Stop('cannot tell which item is damaged');
  const lines = affected.map((a) => ({ ...a, item: c.order.items.find((i) => i.sku === a.sku)! }));
  const amount = lines.reduce((sum, l) => sum + Math.round(l.item.unit_price * 100) * l.quantity, 0) / 100;
  const already = c.order.refunds.reduce((sum, r) => sum + r.amount, 0);
  const what = lines.map((l) => (l.quantity > 1 ? `${l.quantity} x ${l.item.name}` : l.item.name)).join(', ');
  if (amount + already > c.policy.agentLimit) {
    value(
      await c.desk.call('escalate_ticket', {
        ticket_id: c.ticket.ticket_id,
        team: 'billing',
        note: `${what} defective; delivered ${c.order.delivered_on}, within the window. Refund of ${amount.toFixed(2)} is above my ${c.policy.agentLimit.toFixed(2)} limit.`,
      }),
      'escalate',
    );
    value(
      await c.desk.call('reply_to_ticket', {
        ticket_id: c.ticket.ticket_id,
        message:
          `Hi ${c.first}, I'm sorry your ${lines[0]!.item.name.toLowerCase()} is not working. A refund of this size is ` +
          `approved by our billing team, so I've passed your case to them with the details; they will contact ` +
          `you within ${c.policy.billingAnswerDays} business days.`,
      }),
      'reply',
    );
    return `escalated ${c.ticket.ticket_id} to billing (${amount.toFixed(2)} is above the limit)`;
  }
  const refund = value<{ refund_id: string }>(
    await c.desk.call('issue_refund', {
      order_id: c.order.order_id,
      amount,
      skus: lines.map((l) => l.sku),
      reason: `${what} damaged or defective on arrival`,
    }),
    'issue_refund',
  );
  await replyAndClose(
    c,
    `Hi ${c.first}, I'm sorry about the damaged ${what.toLowerCase()}. I've refunded ${dollars(amount)} to your ` +
      `original card (refund ${refund.refund_id}); it will reach you in ${c.policy.arrival} business days. ` +
      `There's no need to send anything back.`,
    'refund_issued',
  );
  return `refunded ${amount.toFixed(2)} on ${c.order.order_id}`;
}

async function decide(c: Case): Promise<string> {
  const message = c.ticket.messages.filter((m) => m.from === 'customer').at(-1)?.text ?? '';
  if (c.order.delivered_on === null) return orderStatus(c);
  const request = classifyRequest(message);
  if (request === 'order_status') return orderStatus(c);
  if (request === 'refund_status' && c.order.refunds.length > 0) return alreadyRefunded(c);
  const age = daysBetween(c.order.delivered_on, c.today);
  if (age > c.policy.windowDays) {
    return deny(
      c,
      `Your order was delivered on ${spokenDate(c.order.delivered_on)}, and refunds are accepted within ` +
        `${c.policy.windowDays} days of delivery, so this one is outside the window.`,
    );
  }
  if (request === 'damaged') return damaged(c, message);
  throw new Stop(`no rule for a ${request} request within the window`);
}

/** Works the ticket the prompt names. A dead end is an `agent` error with the calls so far. */
export async function supportAgent(input: unknown, ctx: FunctionAgentContext): Promise<AgentOutputDraft> {
  const ticketId = /\bT-\d+\b/.exec(typeof input === 'string' ? input : JSON.stringify(input))?.[0];
  if (ticketId === undefined)
    return { output: null, error: 'the prompt names no ticket', error_kind: 'agent' };
  if (ctx.workspace === undefined) return { output: null, error: 'no workspace', error_kind: 'config' };
  const desk = await DeskSession.open(ctx.workspace, ctx.signal);
  try {
    const ticket = value<Ticket>(await desk.call('get_ticket', { ticket_id: ticketId }), 'get_ticket');
    const order = await orderFor(desk, ticket);
    const { today, policy } = value<{ today: string; policy: string }>(
      await desk.call('get_policy', {}),
      'policy',
    );
    const first = ticket.customer.name.split(' ')[0] ?? ticket.customer.name;
    const done = await decide({ desk, ticket, order, policy: readPolicy(policy), today, first });
    return { output: `${ticketId}: ${done}.`, tool_calls: desk.calls };
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return { output: null, tool_calls: desk.calls, error: error.message, error_kind: 'agent' };
  } finally {
    await desk.close();
  }
}
