import { calculateQuote, PricingError, type PricingOptions } from '../services/pricing-service.ts';
import type { OrderItem, Quote, Region, RouteResult } from '../types.ts';

interface StoredOrder extends Quote {
  id: string;
  region: Region;
  status: 'placed';
}

interface OrderRequest extends PricingOptions {
  items: OrderItem[];
}

const orders = new Map<string, StoredOrder>();

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function parseRequest(body: unknown): OrderRequest | string {
  if (!isRecord(body)) return 'body must be an object';
  const { items, region, coupon } = body;
  if (!Array.isArray(items) || items.length === 0) return 'items must be a non-empty array';
  const parsed: OrderItem[] = [];
  for (const item of items) {
    const { sku, quantity } = isRecord(item) ? item : {};
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

/** Validates the request, prices it, and turns pricing failures into 400s. */
function withQuote(
  body: unknown,
  onQuote: (quote: Quote, request: OrderRequest) => RouteResult,
): RouteResult {
  const request = parseRequest(body);
  if (typeof request === 'string') return { status: 400, body: { error: request } };
  try {
    return onQuote(calculateQuote(request.items, request), request);
  } catch (error) {
    if (error instanceof PricingError) return { status: 400, body: { error: error.message } };
    throw error;
  }
}

export function handleQuote(body: unknown): RouteResult {
  return withQuote(body, (quote) => ({ status: 200, body: quote }));
}

export function handleCreateOrder(body: unknown): RouteResult {
  return withQuote(body, (quote, request) => {
    const order: StoredOrder = {
      id: String(orders.size + 1),
      region: request.region,
      status: 'placed',
      ...quote,
    };
    orders.set(order.id, order);
    return { status: 201, body: order };
  });
}

export function handleGetOrder(id: string): RouteResult {
  const order = orders.get(id);
  return order ? { status: 200, body: order } : { status: 404, body: { error: 'not_found' } };
}
