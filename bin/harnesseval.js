#!/usr/bin/env node
// The CLI is built into dist/ by `npm install` (the `prepare` script).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('harnesseval: dist/ is missing; run `npm install` (or `npm run build`) first.\n');
  process.exit(1);
}
await import(cli.href);
