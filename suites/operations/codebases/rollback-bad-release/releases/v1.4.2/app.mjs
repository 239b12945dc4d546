// pricing service v1.4.2
import { createServer } from 'node:http';

const PRICES = { 'MUG-AUR': 24, 'GLS-6': 9.5, 'TRAY-1': 32 };
const server = createServer((req, res) => {
  const sku = new URL(req.url, 'http://x').searchParams.get('sku');
  const body =
    req.url === '/healthz' ? { status: 'ok', version: 'v1.4.2' } : { sku, price: PRICES[sku] ?? null };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});
server.listen(Number(process.env.PORT ?? 8090), '127.0.0.1', () => {
  process.stdout.write(`listening on ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
