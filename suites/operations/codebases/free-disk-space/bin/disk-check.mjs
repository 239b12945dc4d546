#!/usr/bin/env node
// The disk alarm's check: var/ must use at most its quota (256 KiB). Exit 0 under quota, 1 over.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const QUOTA = 256 * 1024;
function used(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? used(path) : statSync(path).size;
  }
  return total;
}
const bytes = used('var');
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
if (bytes > QUOTA) {
  process.stdout.write(`OVER QUOTA: var/ uses ${kib(bytes)} of ${kib(QUOTA)}\n`);
  process.exit(1);
}
process.stdout.write(`ok: var/ uses ${kib(bytes)} of ${kib(QUOTA)}\n`);
