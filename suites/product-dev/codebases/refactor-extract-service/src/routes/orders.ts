import { CATALOG } from '../catalog.ts';
import type { OrderItem, Quote, Region, RouteResult } from '../types.ts';

const TAX_RATES: Record<Region, number> = { US: 0.07, EU: 0.2 };
const COUPONS: Record<string, { percent?: number; flatCents?: number }> = {
  SAVE10: { percent: 10 },
  FLAT5: { flatCents: 500 },
};
const BULK_QUANTITY = 10;
const BULK_PERCENT = 5;
const FREE_SHIPPING_CENTS = 5000;
const SHIPPING_CENTS: Record<Region, number> = { US: 500, EU: 700 };

interface StoredOrder extends Quote {
  id: string;
  region: Region;
  status: 'placed';
}

const orders = new Map<string, StoredOrder>();

function parseRequest(body: unknown): { items: OrderItem[]; region: Region; coupon?: string } | string {
  if (typeof body !== 'object' || body === null) return 'body must be an object';
  const { items, region, coupon } = body as Record<string, unknown>;
  if (!Array.isArray(items) || items.length === 0) return 'items must be a non-empty array';
  const parsed: OrderItem[] = [];
  for (const item of items) {
    const { sku, quantity } = (item ?? {}) as Record<string, unknown>;
    if (typeof sku !== 'string') return 'item sku must be a string';
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1) {
      return 'item quantity must be a positive integer';
    }
    parsed.push({ sku, quantity });
  }
  if (region !== 'US' && region !== 'EU') return 'region must be US or EU';
  if (coupon !== undefined && typeof coupon !== 'string') return 'coupon must be a string';
  return coupon === undefined ? { items: parsed, region } : { items: parsed, region, coupon };
}

export function handleQuote(body: unknown): RouteResult {
  const request = parseRequest(body);
  if (typeof request === 'string') return { status: 400, body: { error: request } };
  const lines = [];
  for (const item of request.items) {
    const unitCents = CATALOG[item.sku];
    if (unitCents === undefined) return { status: 400, body: { error: `unknown sku: ${item.sku}` } };
    lines.push({ ...item, unitCents, totalCents: unitCents * item.quantity });
  }
  const subtotalCents = lines.reduce((sum, line) => sum + line.totalCents, 0);
  let discountCents = 0;
  if (request.coupon !== undefined) {
    const coupon = COUPONS[request.coupon];
    if (!coupon) return { status: 400, body: { error: `unknown coupon: ${request.coupon}` } };
    discountCents += Math.round((subtotalCents * (coupon.percent ?? 0)) / 100) + (coupon.flatCents ?? 0);
  }
  const quantity = request.items.reduce((sum, item) => sum + item.quantity, 0);
  if (quantity >= BULK_QUANTITY) discountCents += Math.round((subtotalCents * BULK_PERCENT) / 100);
  discountCents = Math.min(discountCents, subtotalCents);
  const discounted = subtotalCents - discountCents;
  const shippingCents = discounted >= FREE_SHIPPING_CENTS ? 0 : SHIPPING_CENTS[request.region];
  const taxCents = Math.round(discounted * TAX_RATES[request.region]);
  const quote: Quote = {
    lines,
    subtotalCents,
    discountCents,
    shippingCents,
    taxCents,
    totalCents: discounted + shippingCents + taxCents,
  };
  return { status: 200, body: quote };
}

// Copied from handleQuote when orders shipped; keep the two in sync.
export function handleCreateOrder(body: unknown): RouteResult {
  const request = parseRequest(body);
  if (typeof request === 'string') return { status: 400, body: { error: request } };
  const lines = [];
  for (const item of request.items) {
    const unitCents = CATALOG[item.sku];
    if (unitCents === undefined) return { status: 400, body: { error: `unknown sku: ${item.sku}` } };
    lines.push({ ...item, unitCents, totalCents: unitCents * item.quantity });
  }
  const subtotalCents = lines.reduce((sum, line) => sum + line.totalCents, 0);
  let discountCents = 0;
  if (request.coupon !== undefined) {
    const coupon = COUPONS[request.coupon];
    if (!coupon) return { status: 400, body: { error: `unknown coupon: ${request.coupon}` } };
    discountCents += Math.round((subtotalCents * (coupon.percent ?? 0)) / 100) + (coupon.flatCents ?? 0);
  }
  const quantity = request.items.reduce((sum, item) => sum + item.quantity, 0);
  if (quantity >= BULK_QUANTITY) discountCents += Math.round((subtotalCents * BULK_PERCENT) / 100);
  discountCents = Math.min(discountCents, subtotalCents);
  const discounted = subtotalCents - discountCents;
  const shippingCents = discounted >= FREE_SHIPPING_CENTS ? 0 : SHIPPING_CENTS[request.region];
  const taxCents = Math.round(discounted * TAX_RATES[request.region]);
  const id = String(orders.size + 1);
  const order: StoredOrder = {
    id,
    region: request.region,
    status: 'placed',
    lines,
    subtotalCents,
    discountCents,
    shippingCents,
    taxCents,
    totalCents: discounted + shippingCents + taxCents,
  };
  orders.set(id, order);
  return { status: 201, body: order };
}

export function handleGetOrder(id: string): RouteResult {
  const order = orders.get(id);
  return order ? { status: 200, body: order } : { status: 404, body: { error: 'not_found' } };
}
