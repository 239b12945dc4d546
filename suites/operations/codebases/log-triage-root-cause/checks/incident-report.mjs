#!/usr/bin/env node
/**
 * Checks reports/incident-2026-11-28.md, one aspect per run: `sections`, `timeline`,
 * `root-cause`, `evidence`, `remediation`. Exit 0 when it holds, 1 with the reason, 2 for usage.
 * Plain Node; the log files it compares quotes with are the workspace's own logs/.
 */
import { readdirSync, readFileSync } from 'node:fs';

const REPORT = 'reports/incident-2026-11-28.md';
const SECTIONS = ['Summary', 'Timeline', 'Root cause', 'Evidence', 'Remediation'];

const fail = (message) => {
  process.stdout.write(`FAIL ${message}\n`);
  process.exit(1);
};

let report;
try {
  report = readFileSync(REPORT, 'utf8');
} catch {
  fail(`${REPORT} does not exist`);
}

/** The text under each `##` heading, by heading (case-insensitive). */
function sections(text) {
  const found = new Map();
  let current;
  for (const line of text.split('\n')) {
    const heading = /^##\s+(.+?)\s*$/.exec(line);
    if (heading) {
      current = heading[1].toLowerCase();
      found.set(current, '');
    } else if (current !== undefined) found.set(current, `${found.get(current)}${line}\n`);
  }
  return found;
}

const parts = sections(report);
const section = (name) => {
  const text = parts.get(name.toLowerCase());
  if (text === undefined || text.trim() === '')
    fail(`the report has no "## ${name}" section (or it is empty)`);
  return text;
};

const CHECKS = {
  sections() {
    for (const name of SECTIONS) section(name);
    return 'all five sections are there';
  },
  timeline() {
    const text = section('Timeline');
    if (!/14:00/.test(text)) fail('the timeline does not give the deploy of v2.14.0 at 14:00');
    if (!/14:02/.test(text)) fail('the timeline does not give the first 502 at 14:02');
    return 'the trigger (14:00) and the first 502 (14:02) are on the timeline';
  },
  'root-cause'() {
    const text = section('Root cause').toLowerCase();
    if (!/pool/.test(text)) fail('the root cause does not name the database connection pool');
    if (!/\b2\b|two/.test(text) || !/v2\.14\.0/.test(text))
      fail('the root cause does not name the change: v2.14.0 set the pool size to 2');
    for (const [herring, why] of [
      ['disk', 'the disk was at 81-82% all day, before and after the incident'],
      ['network', 'nothing in the logs points at the network'],
    ])
      if (new RegExp(`\\b${herring}\\b`).test(text)) fail(`the root cause blames the ${herring}: ${why}`);
    return 'the root cause is the pool size of 2 introduced by v2.14.0';
  },
  evidence() {
    const logs = Object.fromEntries(
      readdirSync('logs')
        .filter((f) => f.endsWith('.log'))
        .map((f) => [f, readFileSync(`logs/${f}`, 'utf8').split('\n').filter(Boolean)]),
    );
    const quoted = section('Evidence')
      .split('\n')
      .map((line) =>
        line
          .replace(/^\s*(>\s*|[-*]\s+)?`?/, '')
          .replace(/`?\s*$/, '')
          .trim(),
      )
      .filter((line) => line.length >= 20);
    const files = new Set();
    for (const line of quoted)
      for (const [file, lines] of Object.entries(logs)) if (lines.includes(line)) files.add(file);
    if (files.size < 2)
      fail(
        `the evidence quotes exact lines from ${files.size} log file(s) (${[...files].join(', ') || 'none'}); at least 2 needed`,
      );
    return `the evidence quotes exact lines from ${[...files].sort().join(', ')}`;
  },
  remediation() {
    const text = section('Remediation').toLowerCase();
    if (!/pool/.test(text) || !/\b20\b|staging|config|environment|env/.test(text))
      fail(
        'the remediation does not say how to keep the pool size right (restore 20, stop copying staging env)',
      );
    return 'the remediation addresses the pool configuration';
  },
};

const check = CHECKS[process.argv[2]];
if (check === undefined) {
  process.stderr.write(`usage: incident-report.mjs ${Object.keys(CHECKS).join('|')}\n`);
  process.exit(2);
}
process.stdout.write(`ok ${check()}\n`);
