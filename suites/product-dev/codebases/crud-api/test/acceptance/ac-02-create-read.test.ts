import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sendJson, startApi } from './support.ts';

test('POST creates a product (201 + location) and GET reads it back', async () => {
  const { url } = await startApi();
  const created = await sendJson(`${url}/products`, 'POST', { name: '  Lamp ', priceCents: 2500 });
  assert.equal(created.status, 201);
  assert.equal(created.headers.get('location'), '/products/1');
  assert.match(created.headers.get('content-type') ?? '', /^application\/json/);
  assert.deepEqual(await created.json(), { id: '1', name: 'Lamp', priceCents: 2500, inStock: true });
  await sendJson(`${url}/products`, 'POST', { name: 'Desk', priceCents: 12000, inStock: false });

  const one = await fetch(`${url}/products/1?verbose=1`);
  assert.equal(one.status, 200);
  assert.deepEqual(await one.json(), { id: '1', name: 'Lamp', priceCents: 2500, inStock: true });

  const all = await fetch(`${url}/products`);
  assert.equal(all.status, 200);
  assert.deepEqual(
    ((await all.json()) as { name: string }[]).map((p) => p.name),
    ['Lamp', 'Desk'],
  );
});
