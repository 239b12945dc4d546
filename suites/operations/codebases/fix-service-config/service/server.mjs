// inventory-api: answers /healthz and /items from the data folder. `PORT` overrides the
// configured port (the health check uses 0: any free port). Prints `listening on PORT`.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let config;
try {
  config = loadConfig(root);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`inventory-api: bad configuration: ${error.message}\n`);
  process.exit(78); // EX_CONFIG
}
const items = JSON.parse(readFileSync(join(config.dataDir, 'items.json'), 'utf8'));
const port = process.env.PORT === undefined ? config.port : Number(process.env.PORT);

const server = createServer((req, res) => {
  const body =
    req.url === '/healthz'
      ? { status: 'ok', items: items.length, workers: config.workers }
      : req.url === '/items'
        ? items
        : undefined;
  res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body ?? { error: 'not found' }));
});
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening on ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
