import { createServer } from 'node:http';
import { createHandler } from './app.ts';
import { ProductStore } from './product-store.ts';

const port = Number(process.env.PORT ?? 3000);
createServer(createHandler(new ProductStore())).listen(port, '127.0.0.1', () => {
  console.log(`products API on http://127.0.0.1:${port}`);
});
