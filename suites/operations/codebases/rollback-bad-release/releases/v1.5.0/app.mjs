// pricing service v1.5.0: prices now come from the catalogue file.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const PRICES = JSON.parse(readFileSync(new URL('./catalogue.json', import.meta.url), 'utf8'));
const server = createServer((req, res) => {
  const sku = new URL(req.url, 'http://x').searchParams.get('sku');
  const body =
    req.url === '/healthz' ? { status: 'ok', version: 'v1.5.0' } : { sku, price: PRICES[sku] ?? null };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});
server.listen(Number(process.env.PORT ?? 8090), '127.0.0.1', () => {
  process.stdout.write(`listening on ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
