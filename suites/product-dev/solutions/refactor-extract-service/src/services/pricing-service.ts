import { CATALOG } from '../catalog.ts';
import type { OrderItem, Quote, QuoteLine, Region } from '../types.ts';

/** A request the pricing rules cannot price (unknown SKU or coupon); routes answer it with 400. */
export class PricingError extends Error {
  override readonly name = 'PricingError';
}

export interface PricingOptions {
  region: Region;
  coupon?: string;
}

const TAX_RATES: Readonly<Record<Region, number>> = { US: 0.07, EU: 0.2 };
const SHIPPING_CENTS: Readonly<Record<Region, number>> = { US: 500, EU: 700 };
const COUPONS: Readonly<Record<string, { percent?: number; flatCents?: number }>> = {
  SAVE10: { percent: 10 },
  FLAT5: { flatCents: 500 },
};
/** Orders of at least this many units get BULK_PERCENT off the subtotal, on top of any coupon. */
const BULK_QUANTITY = 10;
const BULK_PERCENT = 5;
/** Shipping is free once the discounted subtotal reaches this. */
const FREE_SHIPPING_CENTS = 5000;

const percentOf = (cents: number, percent: number): number => Math.round((cents * percent) / 100);

function priceLine(item: OrderItem): QuoteLine {
  const unitCents = CATALOG[item.sku];
  if (unitCents === undefined) throw new PricingError(`unknown sku: ${item.sku}`);
  return { sku: item.sku, quantity: item.quantity, unitCents, totalCents: unitCents * item.quantity };
}

function couponDiscount(code: string | undefined, subtotalCents: number): number {
  if (code === undefined) return 0;
  const coupon = COUPONS[code];
  if (!coupon) throw new PricingError(`unknown coupon: ${code}`);
  return percentOf(subtotalCents, coupon.percent ?? 0) + (coupon.flatCents ?? 0);
}

/** Prices an order: lines, coupon and bulk discounts (never below zero), shipping, then tax on the discounted goods. */
export function calculateQuote(items: readonly OrderItem[], options: PricingOptions): Quote {
  const lines = items.map(priceLine);
  const subtotalCents = lines.reduce((sum, line) => sum + line.totalCents, 0);
  const quantity = items.reduce((sum, item) => sum + item.quantity, 0);
  const bulkDiscount = quantity >= BULK_QUANTITY ? percentOf(subtotalCents, BULK_PERCENT) : 0;
  const discountCents = Math.min(couponDiscount(options.coupon, subtotalCents) + bulkDiscount, subtotalCents);
  const discounted = subtotalCents - discountCents;
  const shippingCents = discounted >= FREE_SHIPPING_CENTS ? 0 : SHIPPING_CENTS[options.region];
  const taxCents = Math.round(discounted * TAX_RATES[options.region]);
  return {
    lines,
    subtotalCents,
    discountCents,
    shippingCents,
    taxCents,
    totalCents: discounted + shippingCents + taxCents,
  };
}
