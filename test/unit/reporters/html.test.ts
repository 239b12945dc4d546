import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExperimentSchema } from '../../../src/core/experiment.ts';
import { RunRecordSchema } from '../../../src/core/run-record.ts';
import { formatLikeMetric } from '../../../src/reporters/html/format.ts';
import {
  escapeHtml,
  histogram,
  htmlReporter,
  jsonForScript,
  lineChart,
  renderExperimentHtml,
  renderPage,
  scatter,
  truncateText,
} from '../../../src/reporters/html/index.ts';
import { firstFailure, OUTPUT_LIMIT } from '../../../src/reporters/html/trial-data.ts';
import { getReporter, reporterForFile } from '../../../src/reporters/registry.ts';
import { demoExperiment, trial, XSS_IMG, XSS_SCRIPT } from '../../helpers/experiment-fixture.ts';
import { mixedExperiment } from './experiment-factory.ts';

function pageData(html: string): {
  trials: { task_id: string; output: { text: string; omitted: number } }[];
} {
  const match = /<script type="application\/json" id="data">([\s\S]*?)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error('no data element');
  return JSON.parse(match[1]);
}

describe('escapeHtml', () => {
  it('turns markup and quote characters into entities', () => {
    expect(escapeHtml('<script>alert(1)</script>')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(escapeHtml('"><img src=x onerror=alert(1)>')).toBe('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(escapeHtml("it's & done")).toBe('it&#39;s &amp; done');
  });
  it('leaves plain text and surrogate pairs alone, replaces lone surrogates', () => {
    expect(escapeHtml('plain text 123 😀')).toBe('plain text 123 😀');
    expect(escapeHtml('a\ud800b\udc00c')).toBe('a\ufffdb\ufffdc');
  });
});

describe('jsonForScript', () => {
  it('cannot close its script element and round-trips', () => {
    const value = { output: '</script><script>alert(1)</script><!-- & \u2028\u2029' };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text).toContain('\\u003c/script\\u003e');
    expect(text).toContain('\\u2028');
    expect(JSON.parse(text)).toEqual(value);
  });
  it('serialises null', () => {
    expect(jsonForScript(null)).toBe('null');
  });
});

describe('truncateText', () => {
  it('keeps short text and cuts long text with the omitted count', () => {
    expect(truncateText('abc', 5)).toEqual({ text: 'abc', omitted: 0 });
    expect(truncateText('abcdef', 4)).toEqual({ text: 'abcd', omitted: 2 });
  });
  it('does not split a surrogate pair', () => {
    expect(truncateText('a😀b', 2)).toEqual({ text: 'a', omitted: 3 });
  });
});

describe('renderExperimentHtml', () => {
  const html = renderExperimentHtml(demoExperiment());

  it('escapes agent text in the table and keeps the raw payload out of the markup', () => {
    expect(html).not.toContain(XSS_SCRIPT);
    expect(html).not.toContain(XSS_IMG);
    expect(html).not.toContain('<img');
    expect(html).toContain(escapeHtml(XSS_IMG));
    // The output reaches the page only as JSON data, and comes back intact.
    const beta = pageData(html).trials.find((t) => t.task_id === 'beta');
    expect(beta?.output.text).toBe(`${XSS_SCRIPT} and ${XSS_IMG}`);
  });

  it('has exactly two script elements: the JSON data and the nonce script', () => {
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts).toHaveLength(2);
    expect(scripts[0]).toBe('<script type="application/json" id="data">');
    const nonce = /<script nonce="([^"]+)">/.exec(html)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/=]{16,}$/);
    expect(html).toContain(
      `content="default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; img-src data:; base-uri 'none'; form-action 'none'"`.replace(
        /'/g,
        '&#39;',
      ),
    );
  });

  it('uses a fresh nonce per page unless one is given', () => {
    const other = renderExperimentHtml(demoExperiment());
    const nonceOf = (page: string) => /<script nonce="([^"]+)">/.exec(page)?.[1];
    expect(nonceOf(other)).not.toBe(nonceOf(html));
    expect(renderExperimentHtml(demoExperiment(), { nonce: 'fixed' })).toBe(
      renderExperimentHtml(demoExperiment(), { nonce: 'fixed' }),
    );
  });

  it('references no external resource', () => {
    const withoutXmlns = html.replaceAll('xmlns="http://www.w3.org/2000/svg"', '');
    expect(withoutXmlns).not.toMatch(/https?:\/\//i);
    expect(withoutXmlns).not.toMatch(/\/\/[a-z0-9.-]+\.[a-z]{2,}\//i);
    expect(html).not.toMatch(/<(iframe|object|embed|img)\b/i);
    expect(html.match(/<link\b[^>]*>/g)).toEqual(['<link rel="icon" href="data:,">']);
    expect(html).not.toMatch(/@import|url\(/);
  });

  it('shows the summary, metric cards, charts and one row per trial', () => {
    expect(html).toContain('Demo suite (demo-suite)');
    expect(html).toContain('demo-harness 1.2.0');
    expect(html).toContain('data-metric="success_rate"');
    expect(html).toContain('± 20.0%');
    expect(html).toContain('95% interval 10.0% to 90.0% · n = 3');
    expect(html.match(/<svg class="chart"/g)).toHaveLength(3);
    expect(html.match(/<tr data-outcome=/g)).toHaveLength(6);
    expect(html.match(/<rect class="bar"/g)?.length).toBeGreaterThan(0);
    expect(html.match(/<circle class="point"/g)).toHaveLength(5);
  });

  it('shows n/a metrics without an error or interval', () => {
    const card =
      /<div class="card" data-metric="first_pass_approval_rate">([\s\S]*?)<\/div><\/div>/.exec(html)?.[0] ??
      '';
    expect(card).toContain('n/a');
    expect(card).toContain('no interval · n = 0');
    expect(card).not.toContain('±');
    expect(card).not.toContain('class="ci"');
  });

  it('renders an experiment with no records and no metrics', () => {
    const empty = renderExperimentHtml(
      demoExperiment({ records: [], metrics: [], scores: {}, status: 'running', finished_at: undefined }),
    );
    expect(empty).toContain('No trials were recorded.');
    expect(empty).toContain('No metrics were computed.');
    // No empty chart boxes: each missing chart is said once, in words.
    expect(empty).not.toContain('<rect class="empty"');
    expect(empty).toContain('no trial has an overall score yet, so there is no score distribution');
    expect(empty).toContain('not finished');
    expect(pageData(empty).trials).toEqual([]);
  });

  it('truncates a huge output with a note of what was left out', () => {
    const huge = 'x'.repeat(OUTPUT_LIMIT * 5);
    const page = renderExperimentHtml(
      demoExperiment({ records: [trial({ task: 'big', outcome: 'pass', score: 1, output: huge })] }),
    );
    const [big] = pageData(page).trials;
    expect(big?.output.text).toHaveLength(OUTPUT_LIMIT);
    expect(big?.output.omitted).toBe(OUTPUT_LIMIT * 4);
    expect(page.length).toBeLessThan(OUTPUT_LIMIT * 3);
  });

  it('pretty-prints structured output for the trace view', () => {
    const draft = trial({ task: 'obj', outcome: 'pass', score: 1 });
    const page = renderExperimentHtml(
      demoExperiment({ records: [{ ...draft, output: { output: { answer: '</script>', n: 1 } } }] }),
    );
    expect(pageData(page).trials[0]?.output.text).toBe('{\n  "answer": "</script>",\n  "n": 1\n}');
  });

  it('escapes hostile names in attributes and titles', () => {
    const page = renderExperimentHtml(
      demoExperiment({
        name: '"><script>alert(1)</script>',
        records: [trial({ task: '"><img src=x onerror=alert(1)>', outcome: 'fail', score: 0 })],
      }),
    );
    expect(page).not.toContain('<script>alert(1)');
    expect(page).not.toMatch(/<img/);
    expect(page).toContain('data-task="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"');
  });
});

describe('htmlReporter', () => {
  it('returns the page and writes it, creating parent folders', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'he-html-'));
    try {
      const destination = join(dir, 'deep', 'er', 'report.html');
      const text = await htmlReporter.report(demoExperiment(), { destination });
      expect(text.startsWith('<!doctype html>')).toBe(true);
      expect(await readFile(destination, 'utf8')).toBe(text);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
  it('is registered and selected by .html and .htm', async () => {
    expect(reporterForFile('out/report.html')).toBe('html');
    expect(reporterForFile('REPORT.HTM')).toBe('html');
    const registered = await getReporter('html');
    expect(await registered.report(demoExperiment())).toContain('<!doctype html>');
    expect(htmlReporter.name).toBe('html');
    expect(htmlReporter.extensions).toEqual(['.html', '.htm']);
    expect(htmlReporter.specificationVersion).toBe('v1');
  });
  it('rejects when the destination cannot be written', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'he-html-'));
    try {
      // A directory where the file should be.
      await expect(htmlReporter.report(demoExperiment(), { destination: dir })).rejects.toThrow(
        /cannot write the report to/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('renderPage', () => {
  it('builds a page from generic sections and data', () => {
    const page = renderPage({
      title: 'A & B',
      sections: [{ id: 'one', title: 'First <b>', html: '<p>trusted</p>' }],
      data: { rows: ['</script>'] },
      nonce: 'abc',
    });
    expect(page).toContain('<title>A &amp; B</title>');
    expect(page).toContain('<h2 id="one-title">First &lt;b&gt;</h2><p>trusted</p>');
    expect(page).toContain('{"rows":["\\u003c/script\\u003e"]}');
    expect(page).toContain('<script nonce="abc">');
  });
});

describe('charts', () => {
  it('histogram bins values and labels each bar', () => {
    const svg = histogram([0.05, 0.15, 0.15, 0.95, 1], { title: 'scores', domain: [0, 1], bins: 10 });
    expect(svg.match(/<rect class="bar"/g)).toHaveLength(3);
    expect(svg).toContain('0.1 to 0.2: 2');
    expect(svg).toContain('0.9 to 1: 2');
  });
  it('histogram of one repeated value still draws a bar', () => {
    expect(histogram([3, 3], { title: 't' }).match(/<rect class="bar"/g)).toHaveLength(1);
  });
  it('draws a placeholder for no data and ignores non-finite values', () => {
    expect(histogram([], { title: 't' })).toContain('no data');
    expect(histogram([Number.NaN], { title: 't' })).toContain('no data');
    expect(scatter([], { title: 't' })).toContain('no data');
    expect(lineChart([{ name: 's', points: [{ x: 1, y: null }] }], { title: 't' })).toContain('no data');
  });
  it('scatter draws a dot per point with an escaped label', () => {
    const svg = scatter(
      [
        { x: 1, y: 2, label: '<b>a</b>' },
        { x: 2, y: 3 },
      ],
      { title: 'cost <vs> score' },
    );
    expect(svg.match(/<circle/g)).toHaveLength(2);
    expect(svg).toContain('<title>&lt;b&gt;a&lt;/b&gt;</title>');
    expect(svg).toContain('aria-label="cost &lt;vs&gt; score"');
  });
  it('lineChart breaks the line at a missing value and adds a legend for several series', () => {
    const svg = lineChart(
      [
        {
          name: 'overall',
          points: [
            { x: 0, y: 0.5 },
            { x: 1, y: null },
            { x: 2, y: 0.7 },
            { x: 3, y: 0.8 },
          ],
        },
        {
          name: 'cost',
          points: [
            { x: 0, y: 1 },
            { x: 3, y: 2 },
          ],
        },
      ],
      { title: 'timeline', formatX: (x) => `v${x}` },
    );
    const first = /<g class="series series-0"><path class="line" d="([^"]+)"/.exec(svg)?.[1] ?? '';
    expect(first.match(/M/g)).toHaveLength(2);
    expect(first.match(/L/g)).toHaveLength(1);
    expect(svg).toContain('class="legend series-1"');
    expect(svg).toContain('>v0<');
  });
});

describe('experiment fixture', () => {
  it('is a valid experiment', () => {
    expect(ExperimentSchema.safeParse(demoExperiment()).success).toBe(true);
  });
});

describe('shared experiment factory', () => {
  it('renders the other reporters’ mixed experiment', () => {
    const page = renderExperimentHtml(mixedExperiment());
    expect(page.match(/<tr data-outcome=/g)).toHaveLength(mixedExperiment().records.length);
  });
});

describe('firstFailure', () => {
  const base = RunRecordSchema.parse(trial({ task: 't', outcome: 'pass', score: 1 }));
  it('is empty for a clean pass', () => {
    expect(firstFailure(base)).toBe('');
  });
  it('prefers a failed evaluation, then a failed criterion, then the error', () => {
    const failedEval = {
      ...base,
      evaluations: [{ ...base.evaluations[0]!, passed: false, explanation: 'no match' }],
    };
    expect(firstFailure(failedEval)).toBe('contains: no match');
    const failedCriterion = {
      ...base,
      criteria: [{ ...base.criteria[0]!, status: 'error' as const, explanation: '' }],
    };
    expect(firstFailure(failedCriterion)).toBe('tests-pass: error');
    expect(firstFailure({ ...base, error: 'timed out' })).toBe('timed out');
    const judgeDown = { ...base, evaluations: [{ ...base.evaluations[0]!, error: 'judge unreachable' }] };
    expect(firstFailure(judgeDown)).toBe('contains: judge unreachable');
  });
});

describe('formatLikeMetric', () => {
  const metric = (formatted_value: string, value: number | null, unit?: string) => ({
    name: 'm',
    value,
    formatted_value,
    direction: 'neutral' as const,
    n: 1,
    stderr: null,
    ci95: null,
    description: '',
    details: {},
    ...(unit === undefined ? {} : { unit }),
  });
  // One precision rule per unit (metrics/format.ts), in the HTML page as everywhere else.
  it('follows the unit of the metric', () => {
    expect(formatLikeMetric(metric('72.0%', 0.72), 0.051)).toBe('5.1%');
    expect(formatLikeMetric(metric('$0.12', 0.12), 0.034)).toBe('$0.034');
    expect(formatLikeMetric(metric('1.5s', 1.5, 'seconds'), 0.25)).toBe('0.25s');
    expect(formatLikeMetric(metric('12', 12), 1234.5)).toBe('1235');
  });
});
