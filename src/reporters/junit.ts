import type { Experiment } from '../core/experiment.ts';
import type { RunRecord } from '../core/run-record.ts';
import { metricCells } from '../metrics/format.ts';
import { escapeControlExcept } from '../util/terminal-text.ts';
import { deliver } from './destination.ts';
import {
  countOutcomes,
  type OutcomeCounts,
  showsEpochs,
  trialError,
  trialExplanation,
  trialFailureDetails,
  trialName,
} from './record-view.ts';
import { foldRun } from './run-fold.ts';
import type { RecordPages, ReporterV1, ReportWriter } from './types.ts';

/** A `message` attribute is one line in CI summaries; the full text goes in the element body. */
const MAX_MESSAGE_LENGTH = 500;

// Characters XML 1.0 forbids even as references: C0 controls other than TAB, LF and CR,
// lone surrogates, and U+FFFE/U+FFFF.
const ILLEGAL_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Removes what XML 1.0 cannot carry, so that any CI parser reads the file. */
export function stripIllegalXml(text: string): string {
  return text.replace(ILLEGAL_XML, '');
}

/**
 * Escapes text for element content and for attribute values (both quote kinds). Control
 * characters first become visible escapes (`\x1b[31m` rather than a bare `[31m`; bidi overrides
 * cannot reorder a CI page), then anything XML 1.0 still forbids is stripped.
 */
export function escapeXml(text: string): string {
  return (
    stripIllegalXml(escapeControlExcept(text, '\n\r\t'))
      .replaceAll('&', '&amp;')
      .replaceAll('<', '&lt;')
      .replaceAll('>', '&gt;')
      .replaceAll('"', '&quot;')
      .replaceAll("'", '&apos;')
      // XML parsers turn a raw CR into LF (end-of-line normalisation); a reference survives.
      .replaceAll('\r', '&#13;')
  );
}

/** Attribute values also keep their line breaks and tabs (a parser would turn them into spaces). */
function attr(text: string): string {
  return escapeXml(text).replaceAll('\n', '&#10;').replaceAll('\t', '&#9;');
}

function message(text: string): string {
  const chars = Array.from(text);
  return attr(
    chars.length > MAX_MESSAGE_LENGTH ? `${chars.slice(0, MAX_MESSAGE_LENGTH - 1).join('')}…` : text,
  );
}

function seconds(value: number): string {
  return value.toFixed(3);
}

function testcase(record: RunRecord, classname: string, withEpoch: boolean): string {
  const open = `    <testcase name="${attr(trialName(record, withEpoch))}" classname="${attr(classname)}" time="${seconds(record.duration_seconds)}"`;
  const why = trialExplanation(record) ?? '';
  switch (record.outcome) {
    case 'pass':
      return `${open}/>`;
    case 'fail': {
      const failing = record.evaluations.find((e) => !e.passed);
      const type = failing?.evaluator ?? record.criteria.find((c) => c.status !== 'passed')?.id ?? 'failure';
      const body = escapeXml(trialFailureDetails(record) || why);
      return `${open}>\n      <failure message="${message(why)}" type="${attr(type)}">${body}</failure>\n    </testcase>`;
    }
    case 'error': {
      const type = record.output.error_kind ?? 'error';
      const body = escapeXml(trialError(record) ?? why);
      return `${open}>\n      <error message="${message(why)}" type="${attr(type)}">${body}</error>\n    </testcase>`;
    }
    case 'pending':
      return `${open}>\n      <skipped message="${message(why)}"/>\n    </testcase>`;
    default:
      throw new Error(`unexpected outcome ${String(record.outcome satisfies never)}`);
  }
}

function properties(experiment: Experiment): string[] {
  const entries: Array<[string, string]> = [
    ['experiment_id', experiment.id],
    ['harness', experiment.harness.name],
    ['harness_version', experiment.harness.version],
    ['status', experiment.status],
    ...experiment.metrics.map((m): [string, string] => {
      const c = metricCells(m);
      return [`metric.${m.name}`, [c.value, c.margin, c.interval, c.n].filter((x) => x !== '').join(' ')];
    }),
    ...experiment.violations.map((v): [string, string] => [`violation.${v.metric}`, v.message]),
  ];
  return [
    '    <properties>',
    ...entries.map(([name, value]) => `      <property name="${attr(name)}" value="${attr(value)}"/>`),
    '    </properties>',
  ];
}

/** JUnit XML: one testsuite for the experiment, one testcase per trial (task x epoch). */
export function renderJunit(experiment: Experiment): string {
  const total = experiment.records.reduce((sum, r) => sum + r.duration_seconds, 0);
  const { head, tail } = junitFrame(experiment, countOutcomes(experiment), total);
  const withEpoch = showsEpochs(experiment);
  const cases = experiment.records.map((r) => testcase(r, experiment.suite.id, withEpoch));
  return `${[...head, ...cases, ...tail].join('\n')}\n`;
}

/** `renderJunit` of the experiment with its records: the tally folded first, then a testcase per record. */
export async function streamJunit(
  experiment: Experiment,
  pages: RecordPages,
  write: ReportWriter,
): Promise<void> {
  const fold = await foldRun(experiment, pages);
  const { head, tail } = junitFrame(experiment, fold.counts, fold.durationSeconds);
  await write(head.join('\n'));
  for await (const record of pages.records())
    await write(`\n${testcase(record, experiment.suite.id, fold.withEpoch)}`);
  await write(`\n${tail.join('\n')}\n`);
}

/** The lines before and after the testcases. */
function junitFrame(
  experiment: Experiment,
  counts: OutcomeCounts,
  totalSeconds: number,
): { head: string[]; tail: string[] } {
  const suiteId = experiment.suite.id;
  const tally = `tests="${counts.total}" failures="${counts.fail}" errors="${counts.error}" skipped="${counts.pending}" time="${seconds(totalSeconds)}"`;
  const violations = experiment.violations.map((v) => v.message).join('\n');
  return {
    head: [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites name="harnesseval" ${tally}>`,
      `  <testsuite name="${attr(experiment.suite.name ?? suiteId)}" id="${attr(experiment.id)}" ${tally} timestamp="${attr(experiment.created_at)}">`,
      ...properties(experiment),
    ],
    tail: [
      ...(violations === '' ? [] : [`    <system-err>${escapeXml(violations)}</system-err>`]),
      '  </testsuite>',
      '</testsuites>',
    ],
  };
}

export function createJunitReporter(): ReporterV1 {
  return {
    specificationVersion: 'v1',
    name: 'junit',
    extensions: ['.xml'],
    async report(experiment, options) {
      return deliver(renderJunit(experiment), options);
    },
    streamReport: (experiment, pages, write) => streamJunit(experiment, pages, write),
  };
}
