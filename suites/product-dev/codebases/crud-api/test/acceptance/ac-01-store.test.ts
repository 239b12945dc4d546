import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProductStore } from '../../src/product-store.ts';

test('the store creates, lists, reads, updates and removes products in memory', () => {
  const store = new ProductStore();
  const lamp = store.create({ name: 'Lamp', priceCents: 2500, inStock: true });
  const desk = store.create({ name: 'Desk', priceCents: 12000, inStock: false });
  assert.deepEqual(lamp, { id: '1', name: 'Lamp', priceCents: 2500, inStock: true });
  assert.equal(desk.id, '2');
  assert.deepEqual(
    store.list().map((p) => p.name),
    ['Lamp', 'Desk'],
  );
  assert.deepEqual(store.update('2', { inStock: true }), {
    id: '2',
    name: 'Desk',
    priceCents: 12000,
    inStock: true,
  });
  assert.equal(store.update('9', { inStock: true }), undefined);
  assert.equal(store.remove('1'), true);
  assert.equal(store.remove('1'), false);
  assert.equal(store.get('1'), undefined);
  assert.equal(store.create({ name: 'Chair', priceCents: 1, inStock: true }).id, '3', 'ids are never reused');
});

test('the store hands out copies', () => {
  const store = new ProductStore();
  const created = store.create({ name: 'Lamp', priceCents: 2500, inStock: true });
  created.name = 'Changed';
  const read = store.get('1');
  assert.equal(read?.name, 'Lamp');
  if (read) read.priceCents = 0;
  const [listed] = store.list();
  assert.equal(listed?.priceCents, 2500);
});
