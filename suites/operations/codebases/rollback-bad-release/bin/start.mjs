#!/usr/bin/env node
// Starts the release named in releases/CURRENT.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const releases = join(dirname(fileURLToPath(import.meta.url)), '../releases');
const current = readFileSync(join(releases, 'CURRENT'), 'utf8').trim();
if (!/^v[\w.-]+$/.test(current)) {
  process.stderr.write(`releases/CURRENT names no release: "${current}"\n`);
  process.exit(1);
}
await import(join(releases, current, 'app.mjs'));
