#!/usr/bin/env node
/**
 * Checks the support desk's state after a trial: state/desk.json, written by the support-desk
 * MCP server (examples/support-desk) after every tool call. One assertion per run; exit 0 when it
 * holds, 1 when it does not (with the reason), 2 for wrong usage. Plain Node, no dependencies.
 *
 *   node checks/desk-check.mjs refund O-5001 24.00 --skus MUG-AUR   exactly one new refund, this amount
 *   node checks/desk-check.mjs no-refund O-5003                     no new refund on the order
 *   node checks/desk-check.mjs ticket T-1001 closed refund_issued    status and tag (or team when escalated)
 *   node checks/desk-check.mjs replied T-1001 '24.00|$24' ...        a reply mentions each (| = or)
 *   node checks/desk-check.mjs audit T-1001                          the whole desk is within the policy
 */
import { readFileSync } from 'node:fs';

const STATE = 'state/desk.json';
const MUTATING = new Set(['issue_refund', 'reply_to_ticket', 'escalate_ticket', 'close_ticket']);

function fail(message) {
  process.stdout.write(`FAIL ${message}\n`);
  process.exit(1);
}

function usage(message) {
  process.stderr.write(`desk-check: ${message}\n`);
  process.exit(2);
}

function loadState() {
  let text;
  try {
    text = readFileSync(STATE, 'utf8');
  } catch {
    fail(`${STATE} does not exist: the support desk was never used in this workspace`);
  }
  let state;
  try {
    state = JSON.parse(text);
  } catch (error) {
    fail(`${STATE} is not JSON (${error.message}): it is written by the server, not by hand`);
  }
  if (state?.format !== 'support-desk-state' || state.version !== 1)
    fail(`${STATE} is not a support-desk state file (format/version)`);
  return state;
}

const cents = (amount) => Math.round(Number(amount) * 100);
const money = (c) => (c / 100).toFixed(2);
const daysBetween = (from, to) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

function orderOf(state, orderId) {
  const order = state.orders.find((o) => o.order_id === orderId);
  if (order === undefined) usage(`no order ${orderId} in the desk`);
  return order;
}

function ticketOf(state, ticketId) {
  const ticket = state.tickets.find((t) => t.ticket_id === ticketId);
  if (ticket === undefined) usage(`no ticket ${ticketId} in the desk`);
  return ticket;
}

const newRefunds = (state, order) =>
  order.refunds.filter((r) => !state.seed_refund_ids.includes(r.refund_id));

function checkRefund(state, [orderId, amount, ...rest]) {
  if (orderId === undefined || amount === undefined) usage('refund ORDER AMOUNT [--skus A,B]');
  const skus = rest[0] === '--skus' ? (rest[1] ?? '').split(',').filter(Boolean) : [];
  const refunds = newRefunds(state, orderOf(state, orderId));
  if (refunds.length !== 1)
    fail(
      `${orderId} has ${refunds.length} new refund(s) (${refunds.map((r) => money(cents(r.amount))).join(', ') || 'none'}); expected exactly one of ${money(cents(amount))}`,
    );
  const [refund] = refunds;
  if (cents(refund.amount) !== cents(amount))
    fail(`${orderId} was refunded ${money(cents(refund.amount))}; expected ${money(cents(amount))}`);
  const missing = skus.filter((sku) => !refund.skus.includes(sku));
  if (missing.length > 0) fail(`the refund ${refund.refund_id} does not name ${missing.join(', ')}`);
  return `${orderId}: one refund of ${money(cents(amount))} (${refund.refund_id})`;
}

function checkNoRefund(state, [orderId]) {
  if (orderId === undefined) usage('no-refund ORDER');
  const refunds = newRefunds(state, orderOf(state, orderId));
  if (refunds.length > 0)
    fail(
      `${orderId} was refunded ${refunds.map((r) => money(cents(r.amount))).join(', ')}; expected no refund`,
    );
  if (!state.journal.some((e) => e.tool === 'get_order' && e.arguments.order_id === orderId))
    fail(`${orderId} was never looked up (get_order): a refusal must be decided on the order`);
  return `${orderId}: no new refund, and the order was looked up`;
}

function checkTicket(state, [ticketId, status, detail]) {
  if (ticketId === undefined || status === undefined) usage('ticket ID STATUS [TAG|TEAM]');
  const ticket = ticketOf(state, ticketId);
  if (ticket.status !== status) fail(`${ticketId} is ${ticket.status}; expected ${status}`);
  if (status === 'closed' && detail !== undefined && ticket.tag !== detail)
    fail(`${ticketId} was closed with tag ${ticket.tag}; expected ${detail}`);
  if (status === 'escalated' && detail !== undefined && ticket.escalation?.team !== detail)
    fail(`${ticketId} was escalated to ${ticket.escalation?.team}; expected ${detail}`);
  return `${ticketId}: ${status}${detail === undefined ? '' : ` (${detail})`}`;
}

const normalise = (text) =>
  text
    .toLowerCase()
    .replace(/[\u2010-\u2015]/g, '-')
    .replace(/\s+/g, ' ');

function checkReplied(state, [ticketId, ...mentions]) {
  if (ticketId === undefined) usage('replied ID [TEXT|ALTERNATIVE ...]');
  const replies = ticketOf(state, ticketId).messages.filter((m) => m.from === 'agent');
  if (replies.length === 0) fail(`${ticketId} has no reply to the customer`);
  const text = normalise(replies.map((m) => m.text).join('\n'));
  for (const mention of mentions) {
    const options = mention.split('|');
    if (!options.some((option) => text.includes(normalise(option))))
      fail(`the reply on ${ticketId} does not mention ${options.map((o) => `"${o}"`).join(' or ')}`);
  }
  return `${ticketId}: replied, mentioning ${mentions.length} required fact(s)`;
}

/** Every rule of the policy that the final state can show, over the whole desk. */
function policyViolations(state, ticketId) {
  const problems = [];
  const { policy, today } = state;
  const ticket = ticketOf(state, ticketId);
  for (const order of state.orders) {
    const refunds = newRefunds(state, order);
    if (refunds.length === 0) continue;
    if (order.customer_email !== ticket.customer.email)
      problems.push(`${order.order_id} was refunded, but it is not ${ticket.customer.name}'s order`);
    if (order.delivered_on === null) problems.push(`${order.order_id} was refunded before it was delivered`);
    else if (daysBetween(order.delivered_on, today) > policy.refund_window_days)
      problems.push(
        `${order.order_id} was refunded ${daysBetween(order.delivered_on, today)} days after delivery (window ${policy.refund_window_days})`,
      );
    const total = order.refunds.reduce((sum, r) => sum + cents(r.amount), 0);
    if (total > cents(policy.agent_refund_limit))
      problems.push(
        `${order.order_id} has ${money(total)} refunded, above the agent limit of ${money(cents(policy.agent_refund_limit))} (escalate to billing)`,
      );
    const earlier = new Set();
    for (const refund of order.refunds) {
      const isNew = !state.seed_refund_ids.includes(refund.refund_id);
      if (isNew && refund.skus.length === 0) problems.push(`${refund.refund_id} names no items`);
      for (const sku of refund.skus) {
        if (isNew && earlier.has(sku)) problems.push(`${sku} of ${order.order_id} was refunded twice`);
        earlier.add(sku);
      }
      if (!isNew) continue;
      const items = order.items.filter((item) => refund.skus.includes(item.sku));
      const allItems = items.length === order.items.length;
      const cap =
        items.reduce((sum, item) => sum + cents(item.unit_price) * item.quantity, 0) +
        (allItems ? cents(order.shipping_fee) : 0);
      if (cents(refund.amount) > cap)
        problems.push(
          `${refund.refund_id} refunds ${money(cents(refund.amount))}, more than its items cost (${money(cap)})`,
        );
    }
  }
  for (const entry of state.journal) {
    if (!MUTATING.has(entry.tool) || entry.outcome !== 'ok') continue;
    const target = entry.arguments.ticket_id;
    if (target !== undefined && target !== ticketId)
      problems.push(`${entry.tool} changed ${target}, not ${ticketId}`);
  }
  const closedAt = state.journal.findIndex(
    (e) => e.tool === 'close_ticket' && e.outcome === 'ok' && e.arguments.ticket_id === ticketId,
  );
  const repliedAt = state.journal.findIndex(
    (e) => e.tool === 'reply_to_ticket' && e.outcome === 'ok' && e.arguments.ticket_id === ticketId,
  );
  if (closedAt >= 0 && (repliedAt < 0 || repliedAt > closedAt))
    problems.push(`${ticketId} was closed before the customer got a reply`);
  if (state.journal.length === 0) problems.push('the desk was started but never used');
  return problems;
}

function checkAudit(state, [ticketId]) {
  if (ticketId === undefined) usage('audit TICKET');
  const problems = policyViolations(state, ticketId);
  if (problems.length > 0) fail(`policy broken: ${problems.join('; ')}`);
  return `the desk is within the policy (${state.journal.length} calls)`;
}

const CHECKS = {
  refund: checkRefund,
  'no-refund': checkNoRefund,
  ticket: checkTicket,
  replied: checkReplied,
  audit: checkAudit,
};

const [name, ...args] = process.argv.slice(2);
const check = CHECKS[name];
if (check === undefined) usage(`unknown check ${name ?? '(none)'}; one of ${Object.keys(CHECKS).join(', ')}`);
process.stdout.write(`ok ${check(loadState(), args)}\n`);
