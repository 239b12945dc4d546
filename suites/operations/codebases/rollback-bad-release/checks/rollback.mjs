#!/usr/bin/env node
// `current`: releases/CURRENT names v1.4.2, the last release deploy.log shows healthy, and every
// release folder is as it shipped. `logged`: deploy.log ends with the rollback line. Exit 0/1.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** `sha256  releases/<release>/app.mjs` lines, as `sha256sum` writes them. */
const SHIPPED = Object.fromEntries(
  readFileSync(new URL('./releases.sha256', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(/\s+/))
    .map(([hash, file]) => [file.split('/')[1], hash]),
);
const fail = (message) => {
  process.stdout.write(`FAIL ${message}\n`);
  process.exit(1);
};
const sha = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

const checks = {
  current() {
    const current = readFileSync('releases/CURRENT', 'utf8').trim();
    if (current !== 'v1.4.2')
      fail(`releases/CURRENT is ${current}; the last release that passed its health check is v1.4.2`);
    const folders = readdirSync('releases')
      .filter((name) => name !== 'CURRENT')
      .sort();
    if (folders.join(' ') !== Object.keys(SHIPPED).join(' '))
      fail(`the releases are ${folders.join(', ')}; none may be added or removed`);
    for (const [release, hash] of Object.entries(SHIPPED))
      if (sha(`releases/${release}/app.mjs`) !== hash) fail(`releases/${release}/app.mjs was changed`);
    return 'v1.4.2 is current and every release is as it shipped';
  },
  logged() {
    const lines = readFileSync('deploy.log', 'utf8').trim().split('\n');
    const last = lines.at(-1);
    if (lines.length !== 6)
      fail(`deploy.log has ${lines.length} lines; expected the 5 it had and one rollback line`);
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z rollback v1\.5\.0 -> v1\.4\.2 by=\S+ reason=".+"$/.test(last))
      fail(`the last line of deploy.log is not a rollback record: ${last}`);
    return 'deploy.log records the rollback';
  },
};
const check = checks[process.argv[2]];
if (check === undefined) {
  process.stderr.write('usage: rollback.mjs current|logged\n');
  process.exit(2);
}
process.stdout.write(`ok ${check()}\n`);
