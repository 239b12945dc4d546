import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sendJson, startApi } from './support.ts';

test('PATCH changes only the given fields; DELETE removes with 204', async () => {
  const { url } = await startApi();
  await sendJson(`${url}/products`, 'POST', { name: 'Lamp', priceCents: 2500 });

  const patched = await sendJson(`${url}/products/1`, 'PATCH', { priceCents: 1999, inStock: false });
  assert.equal(patched.status, 200);
  assert.deepEqual(await patched.json(), { id: '1', name: 'Lamp', priceCents: 1999, inStock: false });

  const deleted = await fetch(`${url}/products/1`, { method: 'DELETE' });
  assert.equal(deleted.status, 204);
  assert.equal(await deleted.text(), '');
  assert.deepEqual(await (await fetch(`${url}/products`)).json(), []);
});
