import assert from 'node:assert/strict';
import { test } from 'node:test';
import { handleCreateOrder, handleQuote } from '../../src/routes/orders.ts';
import { calculateQuote } from '../../src/services/pricing-service.ts';
import type { OrderItem, Region } from '../../src/types.ts';

const skus = ['MUG-01', 'TEE-02', 'CAP-03', 'BAG-04'];
const coupons = [undefined, 'SAVE10', 'FLAT5'];

test('quote and order routes return exactly what the pricing service computes', () => {
  let checked = 0;
  for (const region of ['US', 'EU'] satisfies Region[]) {
    for (const coupon of coupons) {
      for (let n = 1; n <= 12; n += 1) {
        const items: OrderItem[] = [
          { sku: skus[n % 4] ?? 'MUG-01', quantity: n },
          { sku: skus[(n + 1) % 4] ?? 'MUG-01', quantity: 1 },
        ];
        const request = coupon === undefined ? { items, region } : { items, region, coupon };
        const expected = calculateQuote(items, coupon === undefined ? { region } : { region, coupon });
        assert.deepEqual(handleQuote(request), { status: 200, body: expected });
        const created = handleCreateOrder(request);
        assert.equal(created.status, 201);
        assert.deepEqual(
          { ...(created.body as object), id: undefined, region: undefined, status: undefined },
          {
            ...expected,
            id: undefined,
            region: undefined,
            status: undefined,
          },
        );
        checked += 1;
      }
    }
  }
  assert.equal(checked, 72);
});
