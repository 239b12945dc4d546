#!/usr/bin/env node
// CommonJS (see bin/package.json), like the CLI bundle it loads: Node 20 loads CommonJS ~15 ms
// faster than ES modules, a quarter of HarnessEval's own start-up (bench/README.md).
// The CLI is built into dist/ by `npm install` (the `prepare` script).
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const cli = join(__dirname, '..', 'dist', 'cli', 'cli.cjs');
if (!existsSync(cli)) {
  process.stderr.write('harnesseval: dist/ is missing; run `npm install` (or `npm run build`) first.\n');
  process.exit(1);
}
require(cli);
