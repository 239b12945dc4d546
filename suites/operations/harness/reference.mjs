#!/usr/bin/env node
// The reference solutions: runs solutions/<runbook id>.sh in the workspace. Every automated
// criterion passes after it (test/integration/operations-suite.test.ts).
import { fileURLToPath } from 'node:url';
import { run, runbookId } from './runbook.mjs';

const id = runbookId();
const { status, output } = run(['sh', fileURLToPath(new URL(`../solutions/${id}.sh`, import.meta.url))]);
process.stdout.write(output);
if (status !== 0) process.exit(1);
process.stdout.write(`applied the reference solution of ${id}\n`);
