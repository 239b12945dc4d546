import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { escapeXml, renderJunit, stripIllegalXml } from '../../../src/reporters/junit.ts';
import { evaluation, experiment, mixedExperiment, NASTY, record } from './experiment-factory.ts';

interface Testcase {
  '@_name': string;
  '@_classname': string;
  '@_time': string;
  failure?: { '@_message': string; '@_type': string; '#text'?: string };
  error?: { '@_message': string; '@_type': string; '#text'?: string };
  skipped?: { '@_message': string };
}

function parse(xml: string) {
  const valid = XMLValidator.validate(xml);
  expect(valid).toBe(true);
  const parser = new XMLParser({
    ignoreAttributes: false,
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
    processEntities: true,
    htmlEntities: true,
    isArray: (name) => name === 'testcase' || name === 'property',
  });
  const doc = parser.parse(xml);
  const suite = doc.testsuites.testsuite;
  return { doc, suite, cases: suite.testcase as Testcase[] };
}

// Characters that XML 1.0 forbids.
const ILLEGAL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

describe('junit reporter', () => {
  it('is valid XML with one testsuite and one testcase per trial', () => {
    const e = mixedExperiment();
    const { doc, suite, cases } = parse(renderJunit(e));
    expect(doc.testsuites['@_tests']).toBe('6');
    expect(suite['@_name']).toBe('Hello world');
    expect(suite['@_tests']).toBe('6');
    expect(suite['@_failures']).toBe('3');
    expect(suite['@_errors']).toBe('1');
    expect(suite['@_skipped']).toBe('1');
    expect(cases.map((c) => c['@_name'])).toEqual(e.records.map((r) => r.task_id));
    expect(cases.every((c) => c['@_classname'] === 'hello-world')).toBe(true);
    expect(cases[0]?.['@_time']).toBe('1.500');
  });

  it('gives failures their explanation, errors their reason and pending trials a skip', () => {
    const { cases } = parse(renderJunit(mixedExperiment()));
    const byName = new Map(cases.map((c) => [c['@_name'], c]));
    expect(byName.get('greet-alice')?.failure).toBeUndefined();
    const bob = byName.get('greet, "bob"');
    expect(bob?.failure?.['@_type']).toBe('contains');
    expect(bob?.failure?.['@_message']).toContain('contains: line one\nline two');
    expect(bob?.failure?.['#text']).toContain('she said "hi" and \'bye\'');
    const tool = byName.get('tool-<script>');
    expect(tool?.error?.['@_type']).toBe('timeout');
    expect(tool?.error?.['#text']).toContain('<script>alert("x")</script> & <b>bold</b> end ]]> of cdata');
    expect(byName.get('needs-review')?.skipped?.['@_message']).toBe('awaiting grades for rubric-clarity');
  });

  it('names trials task#epoch when there are several epochs', () => {
    const e = experiment({
      settings: { epochs: 2 },
      records: [
        record({ task_id: 'a', outcome: 'pass', epoch: 0 }),
        record({ task_id: 'a', outcome: 'pass', epoch: 1 }),
      ],
    });
    expect(parse(renderJunit(e)).cases.map((c) => c['@_name'])).toEqual(['a#0', 'a#1']);
  });

  it('never emits characters illegal in XML 1.0, and shows ANSI escapes as text', () => {
    const xml = renderJunit(mixedExperiment());
    expect(xml).not.toMatch(ILLEGAL);
    expect(xml).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    expect(xml).toContain('\\x1b[31mRED');
    const { cases } = parse(xml);
    const controls = cases.find((c) => c['@_name'] === 'controls');
    expect(controls?.failure?.['#text']).toContain('nul\\x00 bell\\x07');
  });

  it('keeps emoji and CJK intact', () => {
    const { cases } = parse(renderJunit(mixedExperiment()));
    expect(cases.find((c) => c['@_name'] === '=formula')?.failure?.['#text']).toContain(NASTY.emoji);
  });

  it('caps the message attribute but keeps the whole text in the body', () => {
    const e = experiment({ records: [record({ task_id: 'big', outcome: 'error', error: NASTY.big })] });
    const { cases } = parse(renderJunit(e));
    expect(cases[0]?.error?.['@_message'].length).toBeLessThanOrEqual(500);
    expect(cases[0]?.error?.['#text']).toBe(NASTY.big);
  });

  it('records metrics and violations as properties', () => {
    const { suite } = parse(renderJunit(mixedExperiment()));
    const props = new Map(
      (suite.properties.property as Array<{ '@_name': string; '@_value': string }>).map((p) => [
        p['@_name'],
        p['@_value'],
      ]),
    );
    expect(props.get('experiment_id')).toBe('exp-1');
    expect(props.get('metric.success_rate')).toBe('80.0% ±3.2% [67.6%, 92.4%] n=25');
    expect(props.get('violation.success_rate')).toBe('success_rate 80.0% is below the minimum 90.0%');
  });

  it('is valid for an experiment without trials', () => {
    const { suite } = parse(renderJunit(experiment()));
    expect(suite['@_tests']).toBe('0');
  });

  it('fails a trial with no failing evaluation with a generic type', () => {
    const e = experiment({
      records: [
        record({ task_id: 'low', outcome: 'fail', evaluations: [evaluation({ passed: true, score: 0.5 })] }),
      ],
    });
    const { cases } = parse(renderJunit(e));
    expect(cases[0]?.failure?.['@_type']).toBe('failure');
    expect(cases[0]?.failure?.['@_message']).toContain('below the pass threshold');
  });
});

describe('escapeXml', () => {
  it('escapes the five special characters', () => {
    expect(escapeXml(`& < > " '`)).toBe('&amp; &lt; &gt; &quot; &apos;');
  });

  it('strips what XML 1.0 forbids but keeps tab, newline and carriage return', () => {
    expect(stripIllegalXml('a\u0000b\u0008c\ufffed\t\n\r')).toBe('abcd\t\n\r');
    expect(stripIllegalXml('x\ud800y\udc00z')).toBe('xyz');
    expect(stripIllegalXml('🎉')).toBe('🎉');
  });
});
