/**
 * The support desk itself, apart from MCP: tickets, orders and refunds in memory, one desk per
 * server process (stdio) or per session (HTTP). It enforces what a real back office enforces
 * (ids exist, a refund never exceeds what is left to refund, a closed ticket stays closed) and
 * leaves the refund *policy* to the agent: that is what a support harness is evaluated on.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type DeskData,
  DeskDataSchema,
  type DeskState,
  type JournalEntry,
  type Order,
  type Refund,
  type TICKET_TAGS,
  type Ticket,
} from './desk-schema.ts';

/** A request the desk refuses; the MCP layer turns it into a tool error (`isError: true`). */
export class DeskError extends Error {
  override readonly name = 'DeskError';
}

const cents = (amount: number): number => Math.round(amount * 100);

/** The bundled seed data: six tickets, seven orders and the policy. */
export const DEFAULT_DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), 'data');

/** The seed data and policy text of a data folder (`desk.json`, `policy.md`). */
export async function loadDeskData(
  dir: string = DEFAULT_DATA_DIR,
): Promise<{ data: DeskData; policyText: string }> {
  const [json, policyText] = await Promise.all([
    readFile(join(dir, 'desk.json'), 'utf8'),
    readFile(join(dir, 'policy.md'), 'utf8'),
  ]);
  return { data: DeskDataSchema.parse(JSON.parse(json)), policyText };
}

export class Desk {
  readonly #data: DeskData;
  readonly #seedRefundIds: string[];
  readonly #journal: JournalEntry[] = [];
  #refundCounter = 7100;

  constructor(
    data: DeskData,
    readonly policyText: string,
  ) {
    // A deep copy: sessions that start from the same seed never share an object.
    this.#data = structuredClone(data);
    this.#seedRefundIds = this.#data.orders.flatMap((o) => o.refunds.map((r) => r.refund_id));
  }

  get today(): string {
    return this.#data.today;
  }

  listTickets(status?: Ticket['status']) {
    return this.#data.tickets
      .filter((t) => status === undefined || t.status === status)
      .map(({ ticket_id, subject, status: s, customer }) => ({
        ticket_id,
        subject,
        status: s,
        customer: customer.name,
      }));
  }

  getTicket(ticketId: string): Ticket {
    const ticket = this.#data.tickets.find((t) => t.ticket_id === ticketId);
    if (ticket === undefined) throw new DeskError(`no ticket ${ticketId}`);
    return ticket;
  }

  findOrders(email: string) {
    const wanted = email.trim().toLowerCase();
    return this.#data.orders
      .filter((o) => o.customer_email.toLowerCase() === wanted)
      .map(({ order_id, placed_on, status }) => ({ order_id, placed_on, status }));
  }

  getOrder(orderId: string): Order {
    const order = this.#data.orders.find((o) => o.order_id === orderId);
    if (order === undefined) throw new DeskError(`no order ${orderId}`);
    return order;
  }

  issueRefund(request: { order_id: string; amount: number; reason: string; skus: string[] }): Refund {
    const order = this.getOrder(request.order_id);
    if (cents(request.amount) <= 0) throw new DeskError('a refund must be more than 0.00');
    if (Math.abs(request.amount * 100 - cents(request.amount)) > 1e-6)
      throw new DeskError(`amount ${request.amount} has more than two decimals`);
    for (const sku of request.skus)
      if (!order.items.some((item) => item.sku === sku))
        throw new DeskError(`order ${order.order_id} has no item ${sku}`);
    const paid =
      order.items.reduce((sum, item) => sum + cents(item.unit_price) * item.quantity, 0) +
      cents(order.shipping_fee);
    const refunded = order.refunds.reduce((sum, r) => sum + cents(r.amount), 0);
    if (cents(request.amount) > paid - refunded)
      throw new DeskError(
        `order ${order.order_id} has ${((paid - refunded) / 100).toFixed(2)} left to refund, less than ${request.amount.toFixed(2)}`,
      );
    this.#refundCounter += 1;
    const refund: Refund = {
      refund_id: `R-${this.#refundCounter}`,
      amount: cents(request.amount) / 100,
      skus: request.skus,
      reason: request.reason,
      issued_on: this.#data.today,
    };
    order.refunds.push(refund);
    return refund;
  }

  reply(ticketId: string, message: string): Ticket {
    const ticket = this.#open(ticketId);
    if (message.trim() === '') throw new DeskError('a reply needs some text');
    ticket.messages.push({ from: 'agent', text: message, on: this.#data.today });
    return ticket;
  }

  escalate(ticketId: string, team: 'billing' | 'logistics' | 'trust_safety', note: string): Ticket {
    const ticket = this.#open(ticketId);
    ticket.status = 'escalated';
    ticket.escalation = { team, note };
    return ticket;
  }

  close(ticketId: string, tag: (typeof TICKET_TAGS)[number]): Ticket {
    const ticket = this.#open(ticketId);
    ticket.status = 'closed';
    ticket.tag = tag;
    return ticket;
  }

  #open(ticketId: string): Ticket {
    const ticket = this.getTicket(ticketId);
    if (ticket.status === 'closed') throw new DeskError(`ticket ${ticketId} is closed`);
    return ticket;
  }

  /** Records one tool call, in order, for the state file. */
  record(tool: string, args: Record<string, unknown>, error?: string): void {
    const entry: JournalEntry = {
      seq: this.#journal.length + 1,
      tool,
      arguments: args,
      outcome: error === undefined ? 'ok' : 'error',
    };
    if (error !== undefined) entry.error = error;
    this.#journal.push(entry);
  }

  snapshot(): DeskState {
    return structuredClone({
      format: 'support-desk-state' as const,
      version: 1 as const,
      today: this.#data.today,
      policy: this.#data.policy,
      seed_refund_ids: this.#seedRefundIds,
      tickets: this.#data.tickets,
      orders: this.#data.orders,
      journal: this.#journal,
    });
  }
}
