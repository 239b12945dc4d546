#!/usr/bin/env node
// The crontab schedules jobs/nightly-report.sh every day at 02:30, in a schedule cron accepts.
// Exit 0 when it does, 1 with the reason.
import { readFileSync } from 'node:fs';

const RANGES = [
  ['minute', 0, 59],
  ['hour', 0, 23],
  ['day of month', 1, 31],
  ['month', 1, 12],
  ['day of week', 0, 7],
];
const fail = (message) => {
  process.stdout.write(`FAIL ${message}\n`);
  process.exit(1);
};
const entries = readFileSync('crontab', 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));
const jobs = entries.filter((line) => line.includes('jobs/nightly-report.sh'));
if (jobs.length !== 1) fail(`${jobs.length} crontab entries run jobs/nightly-report.sh; expected 1`);
const fields = jobs[0].split(/\s+/);
if (fields.length < 6) fail(`"${jobs[0]}" is not "m h dom mon dow command"`);
fields.slice(0, 5).forEach((field, i) => {
  const [name, low, high] = RANGES[i];
  if (field === '*') return;
  for (const part of field.split(',')) {
    const bounds = part.split('/')[0].split('-');
    for (const bound of bounds) {
      if (bound === '*') continue;
      const n = Number(bound);
      if (!Number.isInteger(n) || n < low || n > high) fail(`${name} "${field}" is outside ${low}-${high}`);
    }
  }
});
const [minute, hour, dom, month, dow] = fields;
if (Number(minute) !== 30 || Number(hour) !== 2 || dom !== '*' || month !== '*' || dow !== '*')
  fail(`the schedule "${fields.slice(0, 5).join(' ')}" is not every day at 02:30 ("30 2 * * *")`);
process.stdout.write('ok the job runs every day at 02:30\n');
