import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sendJson, startApi } from './support.ts';

async function fieldsOf(response: Response): Promise<string[]> {
  assert.equal(response.status, 400);
  const body = (await response.json()) as { error: string; details: { field: string; message: string }[] };
  assert.equal(body.error, 'validation_failed');
  for (const detail of body.details) assert.ok(detail.message.length > 0);
  return body.details.map((d) => d.field).sort();
}

test('invalid bodies are rejected with 400 and one detail per bad field', async () => {
  const { url, store } = await startApi();
  const products = `${url}/products`;
  assert.deepEqual(await fieldsOf(await sendJson(products, 'POST', {})), ['name', 'priceCents']);
  assert.deepEqual(await fieldsOf(await sendJson(products, 'POST', { name: '   ', priceCents: 10 })), [
    'name',
  ]);
  assert.deepEqual(
    await fieldsOf(await sendJson(products, 'POST', { name: 'x'.repeat(101), priceCents: 1 })),
    ['name'],
  );
  assert.deepEqual(await fieldsOf(await sendJson(products, 'POST', { name: 'Lamp', priceCents: 9.5 })), [
    'priceCents',
  ]);
  assert.deepEqual(await fieldsOf(await sendJson(products, 'POST', { name: 'Lamp', priceCents: -1 })), [
    'priceCents',
  ]);
  assert.deepEqual(
    await fieldsOf(
      await sendJson(products, 'POST', { name: 'Lamp', priceCents: 1, inStock: 'yes', id: '7' }),
    ),
    ['id', 'inStock'],
  );
  assert.deepEqual(await fieldsOf(await sendJson(products, 'POST', [1, 2])), ['']);
  assert.equal(store.list().length, 0, 'nothing invalid is stored');

  await sendJson(products, 'POST', { name: 'Lamp', priceCents: 2500 });
  assert.deepEqual(await fieldsOf(await sendJson(`${products}/1`, 'PATCH', { priceCents: '12' })), [
    'priceCents',
  ]);
  assert.equal(store.get('1')?.priceCents, 2500);
});

test('a body that is not JSON is a 400 invalid_json', async () => {
  const { url } = await startApi();
  const response = await fetch(`${url}/products`, { method: 'POST', body: '{"name": "Lamp",' });
  assert.equal(response.status, 400);
  assert.deepEqual(await response.json(), { error: 'invalid_json' });
});
