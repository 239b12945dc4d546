/**
 * The support desk's MCP surface: eight tools and the policy as a resource. Every call is
 * journaled and then reported to `onChange` (the server writes the state file there).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type Desk, DeskError } from './desk.ts';
import type { DeskState } from './desk-schema.ts';
import { TeamSchema, TicketTagSchema } from './desk-schema.ts';

export const SERVER_NAME = 'support-desk';
export const SERVER_VERSION = '1.0.0';
export const POLICY_URI = 'support-desk://policy';

type Handler = (args: Record<string, unknown>) => unknown;

/** A fresh MCP server over one desk. */
export function createSupportDeskServer(desk: Desk, onChange: (state: DeskState) => void): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION });

  const register = (
    name: string,
    description: string,
    inputSchema: z.ZodRawShape,
    handler: Handler,
    readOnly: boolean,
  ) => {
    server.registerTool(
      name,
      { description, inputSchema, annotations: { readOnlyHint: readOnly, openWorldHint: false } },
      async (args: Record<string, unknown>): Promise<CallToolResult> => {
        try {
          const value = handler(args);
          desk.record(name, args);
          const structuredContent = (
            Array.isArray(value) ? { items: value } : value
          ) as CallToolResult['structuredContent'];
          return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent };
        } catch (error) {
          if (!(error instanceof DeskError)) throw error;
          desk.record(name, args, error.message);
          return { isError: true, content: [{ type: 'text', text: error.message }] };
        } finally {
          onChange(desk.snapshot());
        }
      },
    );
  };

  const ticketId = z.string().describe('e.g. T-1001');
  const orderId = z.string().describe('e.g. O-5001');
  register(
    'list_tickets',
    'Lists tickets (id, subject, status, customer name), optionally only those with one status.',
    { status: z.enum(['open', 'escalated', 'closed']).optional() },
    ({ status }) => desk.listTickets(status as 'open' | 'escalated' | 'closed' | undefined),
    true,
  );
  register(
    'get_ticket',
    'A ticket with its customer, order id (null when the customer gave none) and messages.',
    { ticket_id: ticketId },
    ({ ticket_id }) => desk.getTicket(String(ticket_id)),
    true,
  );
  register(
    'find_orders',
    "A customer's orders by e-mail address (id, date placed, status).",
    { email: z.string() },
    ({ email }) => desk.findOrders(String(email)),
    true,
  );
  register(
    'get_order',
    'An order: items (sku, unit price, quantity), shipping fee, dates, carrier and tracking, refunds so far.',
    { order_id: orderId },
    ({ order_id }) => desk.getOrder(String(order_id)),
    true,
  );
  register(
    'get_policy',
    'The refund and support policy every agent must follow (Markdown). Also the resource support-desk://policy.',
    {},
    () => ({ today: desk.today, policy: desk.policyText }),
    true,
  );
  register(
    'issue_refund',
    'Refunds an amount (USD, two decimals) on an order to the original card. Name the items refunded. ' +
      'The desk refuses only what the payment system would; the policy is yours to follow.',
    {
      order_id: orderId,
      amount: z.number().positive().describe('USD, e.g. 24.00'),
      skus: z.array(z.string()).default([]).describe('the items refunded'),
      reason: z.string().min(1),
    },
    ({ order_id, amount, skus, reason }) =>
      desk.issueRefund({
        order_id: String(order_id),
        amount: Number(amount),
        skus: (skus as string[] | undefined) ?? [],
        reason: String(reason),
      }),
    false,
  );
  register(
    'reply_to_ticket',
    'Sends a reply to the customer on a ticket (they read it as an e-mail).',
    { ticket_id: ticketId, message: z.string().min(1) },
    ({ ticket_id, message }) => desk.reply(String(ticket_id), String(message)),
    false,
  );
  register(
    'escalate_ticket',
    'Hands a ticket to a team (billing, logistics, trust_safety) with an internal note; it stays open as escalated.',
    { ticket_id: ticketId, team: TeamSchema, note: z.string().min(1) },
    ({ ticket_id, team, note }) => desk.escalate(String(ticket_id), TeamSchema.parse(team), String(note)),
    false,
  );
  register(
    'close_ticket',
    'Closes a ticket with one tag: refund_issued, refund_denied, already_refunded, order_status or resolved.',
    { ticket_id: ticketId, tag: TicketTagSchema },
    ({ ticket_id, tag }) => desk.close(String(ticket_id), TicketTagSchema.parse(tag)),
    false,
  );

  server.registerResource(
    'policy',
    POLICY_URI,
    { title: 'Refund and support policy', mimeType: 'text/markdown' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: desk.policyText }] }),
  );
  return server;
}
