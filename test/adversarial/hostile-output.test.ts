import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from '../helpers/run-cli.ts';
import { STACK_TRACE, scratch, writeBenchmark } from './helpers.ts';

// Hostile agent outputs through the built CLI: deep (8,000 to 200,000 levels), wide, long,
// invalid UTF-8, lone surrogates, and XSS / spreadsheet-formula / Markdown payloads. None may
// crash the run; over-deep data is that trial's `output_too_deep` error; every report escapes.

let dir = '';
let remove = async () => {};
let server: Server;
let url = '';

beforeAll(async () => {
  ({ dir, remove } = await scratch('hostile'));
  // An HTTP agent: "nested:N" answers {"reply": [[[...N levels...]]]}, anything else {"reply": "ok"}.
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      const input = (JSON.parse(body) as { input: string }).input;
      const n = input.startsWith('nested:') ? Number(input.slice(7)) : 0;
      res.setHeader('content-type', 'application/json');
      res.end(n > 0 ? `{"reply":${'['.repeat(n)}${']'.repeat(n)}}` : '{"reply":"ok"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await remove();
});

interface Exported {
  status: string;
  records: {
    task_id: string;
    outcome: string;
    error?: string;
    output: { error_kind?: string; output: unknown };
  }[];
}

async function exported(db: string, file: string): Promise<Exported> {
  const list = await cli(['runs', 'list', '--store', db, '--format', 'json'], dir);
  const id = (JSON.parse(list.stdout) as { id: string }[])[0]?.id ?? '';
  const r = await cli(['runs', 'export', id, '-o', file, '--store', db], dir);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(await readFile(file, 'utf8')) as Exported;
}

/** Every cell of an RFC 4180 CSV text, unquoted. */
function csvCells(text: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',' || ch === '\n') {
      cells.push(cell);
      cell = '';
    } else if (ch !== '\r') cell += ch;
  }
  cells.push(cell);
  return cells;
}

const byTask = (e: Exported) => Object.fromEntries(e.records.map((r) => [r.task_id, r]));

describe('hostile outputs', () => {
  it('an HTTP agent answering JSON nested 8,000 deep fails that trial only (output_too_deep); the run completes', async () => {
    const suite = await writeBenchmark(
      dir,
      'nest',
      [
        { id: 'n', input: 'nested:8000' },
        { id: 'ok1', input: 'ok', expected: 'ok' },
      ],
      { adapter: 'http', url, output_path: '$.reply' },
    );
    const db = join(dir, 'nest.db');
    const r = await cli(
      ['run', suite, '--store', db, '-j', '1', '--no-progress', '-o', join(dir, 'nest.html')],
      dir,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/internal error|Maximum call stack/);
    const experiment = await exported(db, join(dir, 'nest.json'));
    expect(experiment.status).toBe('completed');
    const trials = byTask(experiment);
    expect(trials['n']?.outcome).toBe('error');
    expect(trials['n']?.output.error_kind).toBe('output_too_deep');
    expect(trials['n']?.error).toMatch(/nests more than 512 levels deep/);
    expect(trials['ok1']?.outcome).toBe('pass');
    for (const format of ['console', 'markdown', 'csv', 'junit', 'json']) {
      const report = await cli(['report', join(dir, 'nest.json'), '--format', format], dir);
      expect(report.status, `${format}: ${report.stderr}`).toBe(0);
    }
  }, 60_000);

  it('in-process and subprocess agents: deep, wide, long, invalid UTF-8 and lone surrogates', async () => {
    const suite = await writeBenchmark(dir, 'shapes', [
      { id: 'deep-array', input: 'deep:200000' },
      { id: 'deep-object', input: 'deep-object:100000' },
      { id: 'at-limit', input: 'deep:500' },
      { id: 'wide', input: 'wide:20000' },
      { id: 'long', input: 'long:2000000' },
      { id: 'surrogates', input: 'surrogates' },
    ]);
    const db = join(dir, 'shapes.db');
    const outputs = ['r.html', 'r.md', 'r.csv', 'r.xml', 'r.json', 'r.jsonl'].map((f) =>
      join(dir, `shapes-${f}`),
    );
    const r = await cli(
      ['run', suite, '--store', db, '--no-progress', ...outputs.flatMap((o) => ['-o', o])],
      dir,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    const trials = byTask(await exported(db, join(dir, 'shapes.json')));
    expect(trials['deep-array']?.output.error_kind).toBe('output_too_deep');
    expect(trials['deep-object']?.output.error_kind).toBe('output_too_deep');
    expect(trials['at-limit']?.output.error_kind).toBeUndefined();
    expect(trials['wide']?.output.error_kind).toBeUndefined();
    expect(String(trials['long']?.output.output ?? '').length).toBe(2_000_000);
    expect(trials['surrogates']?.output.error_kind).toBeUndefined();
    expect(XMLValidator.validate(await readFile(outputs[3] ?? '', 'utf8'))).toBe(true);

    const cliSuite = await writeBenchmark(
      dir,
      'shapes-cli',
      [
        { id: 'utf8', input: 'utf8' },
        { id: 'deep', input: 'deep:100000' },
      ],
      {
        adapter: 'cli',
        command: process.execPath,
        args: [join(ROOT, 'test/fixtures/adversarial/hostile-cli.mjs')],
        output: 'json',
      },
    );
    const db2 = join(dir, 'shapes-cli.db');
    const r2 = await cli(['run', cliSuite, '--store', db2, '--no-progress'], dir);
    expect(r2.stderr).not.toMatch(STACK_TRACE);
    const cliTrials = byTask(await exported(db2, join(dir, 'shapes-cli.json')));
    // Not JSON (invalid bytes become U+FFFD, and the text is not a JSON document).
    expect(cliTrials['utf8']?.output.error_kind).toBe('invalid_output');
    expect(cliTrials['deep']?.output.error_kind).toBe('output_too_deep');
  }, 90_000);

  it('an exported experiment nested too deeply is refused with a location, not a crash', async () => {
    const file = join(dir, 'deep-export.json');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, `{"id":"x","records":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}`);
    for (const args of [
      ['report', file],
      ['runs', 'import', file, '--store', join(dir, 'import.db')],
    ]) {
      const r = await cli(args, dir);
      expect(r.status, args.join(' ')).not.toBe(0);
      expect(r.stderr).toMatch(/deep-export\.json:1:1: .*nests more than/);
      expect(r.stderr).not.toMatch(/internal error|STACK/);
    }
  }, 30_000);
});

describe('payloads in agent output and task ids stay inert in every report', () => {
  const payloads = {
    'md-image': '![i](http://127.0.0.1:9/p.png) [c](javascript:alert(1))',
    'md-ref': '[x]: http://127.0.0.1:9/ref and <http://127.0.0.1:9/auto> **bold** `code` | pipe',
    xss: '"></script><script>alert(1)</script><img src=x onerror=alert(2)>',
    formula: '=HYPERLINK("http://127.0.0.1:9/x","y")',
  };

  it('Markdown keeps link and image syntax from agent output and task ids as text; HTML, CSV and JUnit escape', async () => {
    const tests = [
      ...Object.entries(payloads).map(([id, input]) => ({ id, input, expected: 'y' })),
      { id: '![t](http://127.0.0.1:9/id.png)', input: 'x', expected: 'y' },
    ];
    const suite = await writeBenchmark(dir, 'payloads', tests);
    const out = (ext: string) => join(dir, `payloads.${ext}`);
    const r = await cli(
      [
        'run',
        suite,
        '--no-store',
        '--no-progress',
        ...['md', 'html', 'csv', 'xml'].flatMap((e) => ['-o', out(e)]),
      ],
      dir,
    );
    expect(r.status, r.stderr).toBe(0); // every trial fails, and no threshold says that is wrong
    const md = await readFile(out('md'), 'utf8');
    // No live link or image: every `[` and `]` that came from the agent is escaped.
    expect(md).not.toMatch(/(?<!\\)!?(?<!\\)\[[^\]\n]*(?<!\\)\]\(/);
    expect(md).not.toMatch(/(?<!\\)<http/);
    expect(md).not.toContain('<script>');
    expect(md).toContain('127.0.0.1:9/p.png'); // the text itself is still there to read
    const html = await readFile(out('html'), 'utf8');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).not.toMatch(/<img src=x/);
    const csv = await readFile(out('csv'), 'utf8');
    for (const cell of csvCells(csv)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    expect(XMLValidator.validate(await readFile(out('xml'), 'utf8'))).toBe(true);
  }, 60_000);
});
