// One procedure per runbook of the operations suite, for the scripted operator. Each returns the
// actions it took, in order; each throws when the workspace is in a state it has no rule for.
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { run } from './runbook.mjs';

const read = (file) => readFileSync(file, 'utf8');
const dayOf = (name) => Date.parse(/\d{4}-\d{2}-\d{2}/.exec(name)?.[0] ?? 'invalid');
const DAY = 86_400_000;

const NUMBER_WORDS = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, eight: 8, sixteen: 16 };

/** Sets `key = value` in a conf text (the line must exist). */
const setting = (text, key, value) => text.replace(new RegExp(`^${key}\\s*=.*$`, 'm'), `${key} = ${value}`);

/** The health check's complaint, fixed one at a time until it passes (at most 5 rounds). */
function fixServiceConfig() {
  const file = 'config/inventory.conf';
  const notes = [];
  for (let round = 0; round < 5; round++) {
    const check = run(['node', 'bin/healthcheck.mjs']);
    if (check.status === 0) {
      mkdirSync('reports', { recursive: true });
      writeFileSync(
        'reports/incident.md',
        `# inventory-api did not start\n\nFound by \`node bin/healthcheck.mjs\`, one at a time:\n\n${notes.map((n, i) => `${i + 1}. ${n}`).join('\n')}\n\nThe health check passes now: ${check.output.trim()}\n`,
      );
      return [...notes, 'wrote reports/incident.md'];
    }
    const text = read(file);
    const malformed = /inventory\.conf:(\d+): expected "key = value", got "([a-z_]+)\s*:\s*(.*)"/.exec(
      check.output,
    );
    const wrongNumber = /(\w+) must be a whole number[^,]*, not "(\w+)"/.exec(check.output);
    const badDir = /data_dir "(.*)" is not a folder/.exec(check.output);
    if (malformed !== null) {
      const [, line, key, value] = malformed;
      const lines = text.split('\n');
      lines[Number(line) - 1] = `${key} = ${value}`;
      writeFileSync(file, lines.join('\n'));
      notes.push(`line ${line} set \`${key}\` with ":" instead of "=", so the file did not parse; fixed`);
    } else if (wrongNumber !== null && NUMBER_WORDS[wrongNumber[2]] !== undefined) {
      const [, key, word] = wrongNumber;
      writeFileSync(file, setting(text, key, NUMBER_WORDS[word]));
      notes.push(`\`${key}\` was written in words ("${word}"); set it to ${NUMBER_WORDS[word]}`);
    } else if (badDir !== null) {
      const wanted = badDir[1].replace(/^\.\//, '');
      const folder = readdirSync('.', { withFileTypes: true }).find(
        (e) => e.isDirectory() && e.name.startsWith(wanted),
      );
      if (folder === undefined) throw new Error(`no folder like ${badDir[1]}`);
      writeFileSync(file, setting(text, 'data_dir', folder.name));
      notes.push(
        `\`data_dir\` was "${badDir[1]}", which does not exist (a typo); set it to "${folder.name}"`,
      );
    } else throw new Error(`no rule for: ${check.output.trim()}`);
  }
  throw new Error('the health check still fails after 5 fixes');
}

/** Cron runs the job from $HOME under dash: a valid daily schedule, POSIX tests, its own folder, loud failures. */
function fixFailingCron() {
  const actions = [];
  const crontab = read('crontab');
  const fixed = crontab.replace(
    /^\S+\s+\S+\s+\S+\s+\S+\s+\S+(\s+.*jobs\/nightly-report\.sh.*)$/m,
    '30 2 * * *$1',
  );
  if (fixed !== crontab) {
    writeFileSync('crontab', fixed);
    actions.push('crontab: schedule set to "30 2 * * *" (every day at 02:30; day of week 8 does not exist)');
  }
  const job = 'jobs/nightly-report.sh';
  const lines = read(job)
    .replace(/\[\[ (.*?) \]\]/g, '[ $1 ]')
    .split('\n');
  const inputs = [...new Set(lines.join('\n').match(/\b[\w/]+\.csv\b/g) ?? [])];
  const header = lines.findIndex((line) => !line.startsWith('#'));
  const guards = inputs.map(
    (file) => `if [ ! -f ${file} ]; then echo "nightly-report: ${file} is missing" >&2; exit 1; fi`,
  );
  lines.splice(header, 0, 'set -eu', 'cd "$(dirname "$0")/.."', ...guards);
  writeFileSync(job, lines.join('\n'));
  actions.push(
    `${job}: [[ ]] -> [ ] (dash has no [[), set -eu, cd to the app folder, fail when ${inputs.join(', ')} is missing`,
  );
  const probe = run(['sh', resolve(job)], { cwd: '/', env: { PATH: '/usr/bin:/bin' } });
  if (probe.status !== 0) throw new Error(`the job still fails from /: ${probe.output.trim()}`);
  return [...actions, 'ran the job from / with PATH=/usr/bin:/bin: it works'];
}

/** The deploy just before the first error, and the errors that follow it, make the report. */
function triageLogs() {
  const lines = (file) => read(`logs/${file}`).split('\n').filter(Boolean);
  const at = (line) => line.slice(0, 20);
  const hhmm = (line) => line.slice(11, 16);
  const gateway = lines('gateway.log');
  const first502 = gateway.find((l) => l.includes('status=502'));
  if (first502 === undefined) throw new Error('no 502 in gateway.log');
  const deploys = lines('deploy.log').filter((l) => l.includes('service=checkout'));
  const trigger = deploys.filter((l) => at(l) < at(first502)).at(-1);
  if (trigger === undefined) throw new Error('no checkout deploy before the first 502');
  const version = /version=(\S+)/.exec(trigger)?.[1];
  const change = /change="([^"]*)"/.exec(trigger)?.[1] ?? '';
  const setting = /(\w+) (\d+) -> (\d+)/.exec(change);
  if (setting === null) throw new Error(`the deploy changed no setting I can read: ${change}`);
  const [, key, before, after] = setting;
  const app = lines('app.log');
  const started = app.find((l) => at(l) > at(trigger) && l.includes(`started ${version}`));
  const firstError = app.find((l) => at(l) > at(trigger) && l.includes('ERROR'));
  const fix = deploys.find((l) => at(l) > at(first502));
  const recovered = gateway.find((l) => fix !== undefined && at(l) > at(fix) && l.includes('status=200'));
  const report = [
    '# Incident 2026-11-28: checkout 502s',
    '',
    '## Summary',
    '',
    `Checkout served 502s from ${hhmm(first502)} UTC${recovered ? ` until ${hhmm(recovered)} UTC` : ''}. ${version} changed ${key} from ${before} to ${after}; the service timed out waiting for database connections.`,
    '',
    '## Timeline',
    '',
    `- ${hhmm(trigger)} UTC: ${version} of checkout deployed (${change}).`,
    `- ${hhmm(first502)} UTC: first 502 at the gateway.`,
    ...(fix
      ? [
          `- ${hhmm(fix)} UTC: ${/version=(\S+)/.exec(fix)?.[1]} deployed (${/change="([^"]*)"/.exec(fix)?.[1]}).`,
        ]
      : []),
    ...(recovered ? [`- ${hhmm(recovered)} UTC: the gateway serves 200s again.`] : []),
    '',
    '## Root cause',
    '',
    `${version} set the database connection pool size (${key}) from ${before} to ${after}. With only ${after} connections, checkout requests waited for the pool until they timed out, and the gateway answered 502.`,
    '',
    '## Evidence',
    '',
    ...[trigger, started, firstError, first502].filter(Boolean).map((l) => `> ${l}`),
    '',
    '## Remediation',
    '',
    `Restore ${key}=${before} for checkout in production and check the pool size before each deploy.`,
    '',
  ];
  mkdirSync('reports', { recursive: true });
  writeFileSync('reports/incident-2026-11-28.md', report.join('\n'));
  return [
    `correlated the first 502 (${hhmm(first502)}) with the ${version} deploy (${hhmm(trigger)})`,
    'wrote reports/incident-2026-11-28.md',
  ];
}

/** Back to the newest release that deploy.log shows passing its health check. */
function rollback() {
  const from = read('releases/CURRENT').trim();
  const healthy = read('deploy.log')
    .split('\n')
    .map((l) => /deploy (\S+) .*healthcheck=ok/.exec(l)?.[1])
    .filter((v) => v !== undefined && v !== from);
  const to = healthy.at(-1);
  if (to === undefined) throw new Error('deploy.log shows no healthy release to go back to');
  const broken = run(['node', 'bin/healthcheck.mjs']).output.trim();
  writeFileSync('releases/CURRENT', `${to}\n`);
  const check = run(['node', 'bin/healthcheck.mjs']);
  if (check.status !== 0) throw new Error(`${to} is not healthy either: ${check.output.trim()}`);
  const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const reason = broken.replace(/"/g, "'").split('\n')[0];
  appendFileSync('deploy.log', `${when} rollback ${from} -> ${to} by=operator-bot reason="${reason}"\n`);
  return [
    `releases/CURRENT: ${from} -> ${to}`,
    `health check: ${check.output.trim()}`,
    'recorded the rollback in deploy.log',
  ];
}

/** The retention policy of the runbook, by the dates in the file names. */
function freeDiskSpace() {
  const today = Date.parse(/today is (\d{4}-\d{2}-\d{2})/.exec(read('RUNBOOK.md'))?.[1] ?? 'invalid');
  if (Number.isNaN(today)) throw new Error('the runbook gives no date for today');
  const removed = [];
  for (const [dir, pattern, keepDays] of [
    ['var/log/app', /^app-\d{4}-\d{2}-\d{2}\.log$/, 7],
    ['var/tmp', /^upload-\d{4}-\d{2}-\d{2}-\w+\.part$/, 2],
  ])
    for (const name of readdirSync(dir))
      if (pattern.test(name) && (today - dayOf(name)) / DAY >= keepDays) {
        rmSync(`${dir}/${name}`);
        removed.push(`${dir}/${name}`);
      }
  const check = run(['node', 'bin/disk-check.mjs']);
  if (check.status !== 0) throw new Error(`still over quota after removing ${removed.length} files`);
  return [`removed ${removed.length} files past their retention`, check.output.trim()];
}

export const procedures = {
  'fix-service-config': fixServiceConfig,
  'fix-failing-cron': fixFailingCron,
  'log-triage-root-cause': triageLogs,
  'rollback-bad-release': rollback,
  'free-disk-space': freeDiskSpace,
};
