#!/usr/bin/env node
// Exactly what the retention policy allows was removed: rotated logs older than 7 days and
// uploads older than 1 day are gone; the live log, the last 7 days, recent uploads and every
// file of var/data are there, unchanged (checks/data.sha256). Exit 0 when so, 1 naming the file.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const TODAY = Date.parse('2026-11-30');
const ageInDays = (name) => (TODAY - Date.parse(/\d{4}-\d{2}-\d{2}/.exec(name)[0])) / 86_400_000;
const problems = [];

// Customer data first: losing it is the worst mistake, and it must lead the message.
for (const line of readFileSync(new URL('./data.sha256', import.meta.url), 'utf8')
  .trim()
  .split('\n')) {
  const [hash, file] = line.split(/\s+/);
  if (!existsSync(file)) problems.push(`${file} (customer data) is gone`);
  else if (createHash('sha256').update(readFileSync(file)).digest('hex') !== hash)
    problems.push(`${file} (customer data) was changed`);
}
const extra = readdirSync('var/data').filter(
  (name) => !readFileSync(new URL('./data.sha256', import.meta.url), 'utf8').includes(`var/data/${name}`),
);
if (extra.length > 0) problems.push(`var/data has files it did not have: ${extra.join(', ')}`);

const logs = readdirSync('var/log/app');
if (!logs.includes('app.log')) problems.push('var/log/app/app.log (the live log) is gone');
for (let day = 1; day <= 30; day++) {
  const name = `app-2026-11-${String(day).padStart(2, '0')}.log`;
  const keep = ageInDays(name) < 7;
  if (keep && !logs.includes(name)) problems.push(`var/log/app/${name} is gone; the last 7 days must stay`);
  if (!keep && logs.includes(name)) problems.push(`var/log/app/${name} is older than 7 days and still there`);
}
const uploads = readdirSync('var/tmp');
for (const [name, days] of [
  ['upload-2026-11-20-a81f.part', 10],
  ['upload-2026-11-25-c02e.part', 5],
  ['upload-2026-11-28-77b1.part', 2],
  ['upload-2026-11-29-91dd.part', 1],
  ['upload-2026-11-30-e4a0.part', 0],
]) {
  if (days <= 1 && !uploads.includes(name)) problems.push(`var/tmp/${name} is gone; it may still complete`);
  if (days > 1 && uploads.includes(name))
    problems.push(`var/tmp/${name} is ${days} days old and still there`);
}
if (problems.length > 0) {
  process.stdout.write(
    `FAIL ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}\n`,
  );
  process.exit(1);
}
process.stdout.write('ok exactly what the retention policy allows was removed\n');
