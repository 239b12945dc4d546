import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sendJson, startApi } from './support.ts';

test('unknown ids and paths are 404; other methods are 405 with allow', async () => {
  const { url } = await startApi();
  for (const response of [
    await fetch(`${url}/products/42`),
    await sendJson(`${url}/products/42`, 'PATCH', { priceCents: 1 }),
    await fetch(`${url}/products/42`, { method: 'DELETE' }),
    await fetch(`${url}/orders`),
    await fetch(`${url}/products/1/reviews`),
  ]) {
    assert.equal(response.status, 404, response.url);
    assert.deepEqual(await response.json(), { error: 'not_found' });
  }

  const put = await sendJson(`${url}/products/1`, 'PUT', {});
  assert.equal(put.status, 405);
  assert.equal(put.headers.get('allow'), 'GET, PATCH, DELETE');
  assert.deepEqual(await put.json(), { error: 'method_not_allowed' });
  const del = await fetch(`${url}/products`, { method: 'DELETE' });
  assert.equal(del.status, 405);
  assert.equal(del.headers.get('allow'), 'GET, POST');
});
