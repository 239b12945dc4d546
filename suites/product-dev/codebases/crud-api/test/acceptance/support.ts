import { createServer } from 'node:http';
import { after } from 'node:test';
import { createHandler } from '../../src/app.ts';
import { ProductStore } from '../../src/product-store.ts';

/** Starts the API on 127.0.0.1 with a random port; closed after the test file. */
export async function startApi(): Promise<{ url: string; store: ProductStore }> {
  const store = new ProductStore();
  const server = createServer(createHandler(store));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  return { url: `http://127.0.0.1:${address.port}`, store };
}

export function sendJson(url: string, method: string, body: unknown): Promise<Response> {
  return fetch(url, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}
