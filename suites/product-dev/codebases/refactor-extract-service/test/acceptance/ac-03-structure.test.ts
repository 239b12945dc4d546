import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

const read = (path: string) => readFile(new URL(`../../${path}`, import.meta.url), 'utf8');

test('the routes import the pricing service and no longer hold pricing rules', async () => {
  const routes = await read('src/routes/orders.ts');
  assert.match(
    routes,
    /import\s*\{[^}]*\bcalculateQuote\b[^}]*\}\s*from\s*['"]\.\.\/services\/pricing-service(\.ts|\.js)?['"]/,
  );
  assert.match(routes, /\bPricingError\b/);
  for (const leftover of [
    'TAX_RATES',
    'COUPONS',
    'BULK_',
    'SHIPPING',
    'CATALOG',
    'Math.round',
    'unitCents',
  ]) {
    assert.ok(!routes.includes(leftover), `src/routes/orders.ts still contains ${leftover}`);
  }
});

test('the service stands alone: no HTTP, no route imports', async () => {
  const service = await read('src/services/pricing-service.ts');
  assert.match(service, /export\s+(function\s+calculateQuote|const\s+calculateQuote)/);
  assert.match(service, /export\s+class\s+PricingError\s+extends\s+Error/);
  assert.doesNotMatch(service, /from\s*['"](node:)?http['"]/);
  assert.doesNotMatch(service, /from\s*['"][^'"]*routes\//);
});
