/**
 * The support desk's data model (zod, schema first): the seed data a desk starts from
 * (data/desk.json) and the state snapshot it writes after every tool call (`--state`).
 */
import { z } from 'zod';

/** Dollar amounts with at most two decimals, as customers and refund systems see them. */
export const MoneySchema = z
  .number()
  .nonnegative()
  .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'at most two decimals');

const DateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD');

export const ItemSchema = z
  .object({
    sku: z.string().min(1),
    name: z.string().min(1),
    unit_price: MoneySchema,
    quantity: z.number().int().positive(),
    final_sale: z.boolean().default(false),
  })
  .strict();

export const RefundSchema = z
  .object({
    refund_id: z.string().min(1),
    amount: MoneySchema,
    skus: z.array(z.string()).default([]),
    reason: z.string(),
    issued_on: DateSchema,
  })
  .strict();
export type Refund = z.infer<typeof RefundSchema>;

export const OrderSchema = z
  .object({
    order_id: z.string().min(1),
    customer_email: z.string().email(),
    placed_on: DateSchema,
    status: z.enum(['processing', 'in_transit', 'delivered']),
    shipped_on: DateSchema.nullable().default(null),
    delivered_on: DateSchema.nullable().default(null),
    carrier: z.string().nullable().default(null),
    tracking_number: z.string().nullable().default(null),
    items: z.array(ItemSchema).min(1),
    shipping_fee: MoneySchema,
    refunds: z.array(RefundSchema).default([]),
  })
  .strict();
export type Order = z.infer<typeof OrderSchema>;

export const MessageSchema = z
  .object({ from: z.enum(['customer', 'agent']), text: z.string(), on: DateSchema })
  .strict();

export const TICKET_TAGS = [
  'refund_issued',
  'refund_denied',
  'already_refunded',
  'order_status',
  'resolved',
] as const;
export const TicketTagSchema = z.enum(TICKET_TAGS);
export const TEAMS = ['billing', 'logistics', 'trust_safety'] as const;
export const TeamSchema = z.enum(TEAMS);

export const TicketSchema = z
  .object({
    ticket_id: z.string().min(1),
    customer: z.object({ name: z.string(), email: z.string().email() }).strict(),
    subject: z.string(),
    order_id: z.string().nullable(),
    status: z.enum(['open', 'escalated', 'closed']),
    tag: TicketTagSchema.nullable().default(null),
    escalation: z.object({ team: TeamSchema, note: z.string() }).strict().nullable().default(null),
    messages: z.array(MessageSchema).min(1),
  })
  .strict();
export type Ticket = z.infer<typeof TicketSchema>;

/** The numbers of the policy document, so that checks audit what the document says. */
export const PolicyLimitsSchema = z
  .object({
    currency: z.literal('USD'),
    refund_window_days: z.number().int().positive(),
    agent_refund_limit: MoneySchema,
    refund_arrival_business_days: z.string(),
  })
  .strict();

export const DeskDataSchema = z
  .object({
    /** The desk's fixed "today", so that windows and dates are the same in every run. */
    today: DateSchema,
    policy: PolicyLimitsSchema,
    tickets: z.array(TicketSchema),
    orders: z.array(OrderSchema),
  })
  .strict();
export type DeskData = z.infer<typeof DeskDataSchema>;

export const JournalEntrySchema = z
  .object({
    seq: z.number().int().positive(),
    tool: z.string(),
    arguments: z.record(z.string(), z.unknown()),
    outcome: z.enum(['ok', 'error']),
    error: z.string().optional(),
  })
  .strict();
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

/** What `--state` holds: the seed's ids, the desk as it is now, and every call in order. */
export const DeskStateSchema = z
  .object({
    format: z.literal('support-desk-state'),
    version: z.literal(1),
    today: DateSchema,
    policy: PolicyLimitsSchema,
    /** Refund ids that existed before this session, so a check can tell new refunds apart. */
    seed_refund_ids: z.array(z.string()),
    tickets: z.array(TicketSchema),
    orders: z.array(OrderSchema),
    journal: z.array(JournalEntrySchema),
  })
  .strict();
export type DeskState = z.infer<typeof DeskStateSchema>;
