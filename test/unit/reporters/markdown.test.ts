import { describe, expect, it } from 'vitest';
import {
  MAX_ANNOTATION_ROWS,
  MAX_FAILURE_ROWS,
  markdownCell,
  renderMarkdown,
} from '../../../src/reporters/markdown.ts';
import { evaluation, experiment, mixedExperiment, NASTY, record } from './experiment-factory.ts';

/** Splits a GFM table row into cells the way GitHub does: on `|` not preceded by a backslash. */
function cells(row: string): string[] {
  return row
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

function tables(markdown: string): string[][] {
  const blocks: string[][] = [];
  let current: string[] = [];
  for (const line of markdown.split('\n')) {
    if (line.startsWith('|')) current.push(line);
    else if (current.length > 0) {
      blocks.push(current);
      current = [];
    }
  }
  if (current.length > 0) blocks.push(current);
  return blocks;
}

describe('markdown reporter', () => {
  it('has a verdict, a metrics table with the interval, violations and failures', () => {
    const md = renderMarkdown(mixedExperiment());
    expect(md).toContain('## HarnessEval: Hello world × ref-agent@1.2.0');
    expect(md).toContain('**FAIL** — 1/6 passed, 3 failed, 1 error, 1 pending');
    expect(md).toContain('| success_rate | 80.0% | ±3.2% | [67.6%, 92.4%] | 25 |');
    expect(md).toContain('- :x: success_rate 80.0% is below the minimum 90.0%');
    expect(md).toContain('### Not passed (5)');
    expect(md).not.toContain('greet-alice');
  });

  it('keeps every table row at its column count, whatever the cells hold', () => {
    const md = renderMarkdown(mixedExperiment());
    const found = tables(md);
    expect(found).toHaveLength(2);
    for (const table of found) {
      const width = cells(table[0] ?? '').length;
      for (const row of table) expect(cells(row), row).toHaveLength(width);
    }
  });

  it('escapes pipes, newlines, HTML and control characters in cells', () => {
    const md = renderMarkdown(mixedExperiment());
    expect(md).toContain('left \\| right \\|\\| both');
    expect(md).toContain('&lt;script&gt;');
    expect(md).not.toContain('<script>');
    expect(md).not.toContain('\u001b');
    expect(md).toContain('contains: line one line two line three');
  });

  it('caps the failure list for a PR comment and says how many more there are', () => {
    const records = Array.from({ length: 45 }, (_, i) =>
      record({
        task_id: `t${i}`,
        outcome: 'fail',
        evaluations: [evaluation({ passed: false, score: 0, explanation: NASTY.big })],
      }),
    );
    const md = renderMarkdown(experiment({ records }));
    const failures = tables(md)[0] ?? [];
    expect(failures).toHaveLength(2 + MAX_FAILURE_ROWS);
    expect(md).toContain(`…and ${45 - MAX_FAILURE_ROWS} more`);
    expect(md.length).toBeLessThan(65_536);
  });

  it('has no failure section when everything passed', () => {
    const md = renderMarkdown(experiment({ records: [record({ task_id: 'a', outcome: 'pass' })] }));
    expect(md).toContain('**PASS** — 1/1 passed');
    expect(md).not.toContain('Not passed');
  });
});

describe('markdownCell', () => {
  it('makes one safe line of any text', () => {
    expect(markdownCell('a|b\nc\r\nd')).toBe('a\\|b c d');
    expect(markdownCell('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(markdownCell('`code|`')).toBe('\\`code\\|\\`');
  });

  it('leaves no live link, image, autolink or emphasis from agent text', () => {
    expect(markdownCell('![i](http://127.0.0.1:9/p.png) [c](javascript:alert(1))')).toBe(
      '!\\[i\\](http://127.0.0.1:9/p.png) \\[c\\](javascript:alert(1))',
    );
    expect(markdownCell('<http://x> **b** ~~s~~')).toBe('&lt;http://x&gt; \\*\\*b\\*\\* \\~\\~s\\~\\~');
    expect(markdownCell('snake_case_id')).toBe('snake_case_id');
  });

  it('cuts long text by code point, never leaving half an emoji', () => {
    const cut = markdownCell('🎉'.repeat(500), 10);
    expect(Array.from(cut)).toHaveLength(10);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describe('markdown reporter: annotations', () => {
  const note = (id: number, run_id: string, text: string) => ({
    id,
    experiment_id: 'x',
    run_id,
    label: `l${id}`,
    note: text,
    author: 'Ada',
    created_at: '2026-12-01T10:00:00.000Z',
  });

  it('has no section without annotations, and at most MAX_ANNOTATION_ROWS rows with the rest counted', () => {
    const e = mixedExperiment();
    expect(renderMarkdown(e)).not.toContain('### Annotations');
    const runId = e.records[0]?.run_id ?? '';
    const many = Array.from({ length: MAX_ANNOTATION_ROWS + 3 }, (_, i) => note(i + 1, runId, `n${i}`));
    const md = renderMarkdown(e, { annotations: many });
    expect(md).toContain(`### Annotations (${MAX_ANNOTATION_ROWS + 3})`);
    const table = tables(md).at(-1) ?? [];
    expect(table).toHaveLength(MAX_ANNOTATION_ROWS + 2);
    expect(md).toContain('_…and 3 more (see `harnesseval annotations export`)._');
  });

  it('escapes a note like agent output and names an unknown trial by its run id', () => {
    const text = `${NASTY.script} ${NASTY.pipe} ${NASTY.newline} ![i](http://evil.test/b.png)`;
    const md = renderMarkdown(mixedExperiment(), { annotations: [note(1, 'gone#9', text)] });
    const row = tables(md).at(-1)?.[2] ?? '';
    expect(cells(row)).toHaveLength(5);
    expect(cells(row)[0]).toBe('gone#9');
    expect(cells(row)[2]).toBe(markdownCell(text));
    expect(row).not.toMatch(/<script|<b>/i);
    expect(row).toContain('!\\[i\\](http://evil.test/b.png)');
  });
});
