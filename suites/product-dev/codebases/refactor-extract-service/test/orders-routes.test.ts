import assert from 'node:assert/strict';
import { test } from 'node:test';
import { handleCreateOrder, handleGetOrder, handleQuote } from '../src/routes/orders.ts';

test('a small US quote pays shipping and 7% tax', () => {
  const result = handleQuote({ items: [{ sku: 'MUG-01', quantity: 2 }], region: 'US' });
  assert.equal(result.status, 200);
  assert.deepEqual(result.body, {
    lines: [{ sku: 'MUG-01', quantity: 2, unitCents: 1200, totalCents: 2400 }],
    subtotalCents: 2400,
    discountCents: 0,
    shippingCents: 500,
    taxCents: 168,
    totalCents: 3068,
  });
});

test('coupons and the bulk discount stack; large EU orders ship free', () => {
  const result = handleQuote({ items: [{ sku: 'TEE-02', quantity: 10 }], region: 'EU', coupon: 'SAVE10' });
  assert.deepEqual(result.body, {
    lines: [{ sku: 'TEE-02', quantity: 10, unitCents: 2500, totalCents: 25000 }],
    subtotalCents: 25000,
    discountCents: 3750,
    shippingCents: 0,
    taxCents: 4250,
    totalCents: 25500,
  });
});

test('a flat coupon takes 500 cents off', () => {
  const result = handleQuote({ items: [{ sku: 'MUG-01', quantity: 1 }], region: 'US', coupon: 'FLAT5' });
  assert.equal((result.body as { discountCents: number }).discountCents, 500);
  assert.equal((result.body as { totalCents: number }).totalCents, 700 + 500 + 49);
});

test('bad requests, unknown SKUs and coupons are 400', () => {
  assert.deepEqual(handleQuote({ items: [], region: 'US' }), {
    status: 400,
    body: { error: 'items must be a non-empty array' },
  });
  assert.deepEqual(handleQuote({ items: [{ sku: 'X', quantity: 1 }], region: 'US' }).body, {
    error: 'unknown sku: X',
  });
  assert.deepEqual(
    handleQuote({ items: [{ sku: 'MUG-01', quantity: 1 }], region: 'US', coupon: 'FREE' }).body,
    {
      error: 'unknown coupon: FREE',
    },
  );
  assert.equal(handleQuote({ items: [{ sku: 'MUG-01', quantity: 1 }], region: 'MARS' }).status, 400);
});

test('placing an order stores the quoted totals', () => {
  const created = handleCreateOrder({
    items: [{ sku: 'BAG-04', quantity: 1 }],
    region: 'US',
    coupon: 'FLAT5',
  });
  assert.equal(created.status, 201);
  const order = created.body as { id: string; totalCents: number; status: string };
  assert.equal(order.status, 'placed');
  assert.equal(order.totalCents, 5900 + 0 + 413, '5900 after the coupon ships free');
  assert.deepEqual(handleGetOrder(order.id), { status: 200, body: created.body });
  assert.equal(handleGetOrder('999').status, 404);
});
