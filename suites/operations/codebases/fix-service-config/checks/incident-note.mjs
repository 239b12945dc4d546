#!/usr/bin/env node
// reports/incident.md names every problem the configuration had: the malformed log_level line,
// workers given in words, and the data_dir typo. Exit 0 when it does, 1 naming what is missing.
import { readFileSync } from 'node:fs';

const PROBLEMS = [
  ['the malformed log_level line', /log_level/i],
  ['workers given in words', /workers/i],
  ['the data_dir typo', /data_dir/i],
];
let note;
try {
  note = readFileSync('reports/incident.md', 'utf8');
} catch {
  process.stdout.write('FAIL reports/incident.md does not exist\n');
  process.exit(1);
}
const missing = PROBLEMS.filter(([, pattern]) => !pattern.test(note)).map(([name]) => name);
if (missing.length > 0) {
  process.stdout.write(`FAIL the incident note does not mention ${missing.join('; ')}\n`);
  process.exit(1);
}
process.stdout.write('ok the incident note names all three problems\n');
