import assert from 'node:assert/strict';
import { test } from 'node:test';
import { calculateQuote, PricingError } from '../../src/services/pricing-service.ts';

test('calculateQuote prices lines, discounts, shipping and tax', () => {
  assert.deepEqual(calculateQuote([{ sku: 'MUG-01', quantity: 2 }], { region: 'US' }), {
    lines: [{ sku: 'MUG-01', quantity: 2, unitCents: 1200, totalCents: 2400 }],
    subtotalCents: 2400,
    discountCents: 0,
    shippingCents: 500,
    taxCents: 168,
    totalCents: 3068,
  });
  const bulk = calculateQuote(
    [
      { sku: 'CAP-03', quantity: 6 },
      { sku: 'MUG-01', quantity: 4 },
    ],
    { region: 'EU', coupon: 'FLAT5' },
  );
  assert.equal(bulk.subtotalCents, 15600);
  assert.equal(bulk.discountCents, 500 + 780);
  assert.equal(bulk.shippingCents, 0);
  assert.equal(bulk.taxCents, 2864);
  assert.equal(bulk.totalCents, 14320 + 2864);
  assert.equal(calculateQuote([{ sku: 'MUG-01', quantity: 1 }], { region: 'EU' }).shippingCents, 700);
});

test('unknown SKUs and coupons throw PricingError with the route messages', () => {
  assert.throws(
    () => calculateQuote([{ sku: 'NOPE', quantity: 1 }], { region: 'US' }),
    (error: unknown) => {
      return error instanceof PricingError && error instanceof Error && error.message === 'unknown sku: NOPE';
    },
  );
  assert.throws(
    () => calculateQuote([{ sku: 'MUG-01', quantity: 1 }], { region: 'US', coupon: 'FREE' }),
    (error: unknown) => error instanceof PricingError && error.message === 'unknown coupon: FREE',
  );
});

test('the service is pure: same answer twice, inputs untouched', () => {
  const items = Object.freeze([Object.freeze({ sku: 'TEE-02', quantity: 3 })]);
  const first = calculateQuote([...items], { region: 'US', coupon: 'SAVE10' });
  const second = calculateQuote([...items], { region: 'US', coupon: 'SAVE10' });
  assert.deepEqual(first, second);
  assert.notEqual(first.lines[0], items[0]);
});
