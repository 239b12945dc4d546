import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExperimentSchema } from '../../src/core/experiment.ts';
import { RunRecordSchema } from '../../src/core/run-record.ts';
import { alive, cli, ROOT, waitFor } from '../helpers/run-cli.ts';

// Drives the built CLI end to end (`npx tsdown` first; `npm test` does it in pretest).
const FIX = join(ROOT, 'test/fixtures/run');
const fixture = (name: string) => join(FIX, name);

let root = '';
let count = 0;
async function tempDir(): Promise<string> {
  count += 1;
  const dir = join(root, `case-${count}`);
  await import('node:fs/promises').then((fs) => fs.mkdir(dir, { recursive: true }));
  return dir;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harnesseval-run-cli-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The experiment printed by `--reporter json`. */
function parseExperiment(stdout: string) {
  return ExperimentSchema.parse(JSON.parse(stdout));
}

/** A minimal RFC 4180 reader: quoted fields may hold commas, quotes and newlines. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

describe('harnesseval run: exit status', () => {
  it('exits 0 when every threshold holds, and prints the results table', async () => {
    const dir = await tempDir();
    const r = await cli(['run', fixture('basic.yaml'), '--store', join(dir, 'db.sqlite')]);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/greet-ada\s+PASS/);
    expect(r.stdout).toMatch(/farewell-dee\s+FAIL/);
    expect(r.stdout).toContain('3/4 passed');
    expect(existsSync(join(dir, 'db.sqlite'))).toBe(true);
    expect(r.stderr).toMatch(/stored experiment \S+ in /);
  });

  it('exits 1 when a threshold is violated and prints each violation', async () => {
    const r = await cli(['run', fixture('thresholds.yaml'), '--no-store', '--no-progress']);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/success_rate 50\.0% is below the minimum 90\.0%/);
    expect(r.stdout).toMatch(/accuracy 50\.0% is below the minimum 80\.0%/);
  });

  it('exits 0 with --no-fail-on-threshold, still printing the violations', async () => {
    const r = await cli(['run', fixture('thresholds.yaml'), '--no-store', '--no-fail-on-threshold']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/success_rate 50\.0% is below the minimum/);
  });

  it('exits 2 for an invalid suite file with a located error and no stack trace', async () => {
    const r = await cli(['run', fixture('invalid.yaml'), '--no-store']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/invalid\.yaml:9:\d+: tests\[0\]\.timeout: .*expected a number > 0/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
  });

  it('exits 2 for an unknown adapter or evaluator and suggests the right name', async () => {
    const adapter = await cli(['run', fixture('unknown-adapter.yaml'), '--no-store']);
    expect(adapter.status).toBe(2);
    expect(adapter.stderr).toMatch(/unknown-adapter\.yaml:4:\d+: agent\.adapter: .*did you mean "function"/);
    const evaluator = await cli(['run', fixture('unknown-evaluator.yaml'), '--no-store']);
    expect(evaluator.status).toBe(2);
    expect(evaluator.stderr).toMatch(/unknown-evaluator\.yaml:10:\d+: .*did you mean "exact_match"/);
    expect(`${adapter.stderr}${evaluator.stderr}`).not.toMatch(/\n\s+at /);
  });

  it('exits 2 for a missing --harness file, a dataset with no agent, and bad flags', async () => {
    const dir = await tempDir();
    const cases: [string[], RegExp][] = [
      [['--harness', join(dir, 'nope.yaml')], /file not found: .*nope\.yaml/],
      [['-j', '0'], /--concurrency must be a whole number >= 1/],
      [['--epochs', 'x'], /--epochs must be a whole number >= 1/],
      [['--timeout', '-1'], /--timeout must be a number > 0/],
      [['--grace', '-1'], /--grace must be a number of seconds from 0 to 2147483/],
      [['--grace', '1e9'], /--grace must be a number of seconds from 0 to 2147483/],
      [['--filter-difficulty', 'extreme'], /Allowed choices are easy, medium, hard/],
      [['-o', join(dir, 'out.pdf')], /cannot tell the report format of .*out\.pdf/],
      [['--reporter', 'jsn'], /jsn/],
      [
        ['--resume', 'no-such-experiment', '--store', join(dir, 'db.sqlite')],
        /no experiment no-such-experiment/,
      ],
    ];
    for (const [flags, message] of cases) {
      const r = await cli(['run', fixture('basic.yaml'), '--no-progress', ...flags]);
      expect(r.status, flags.join(' ')).toBe(2);
      expect(r.stderr, flags.join(' ')).toMatch(message);
      expect(r.stderr, flags.join(' ')).not.toMatch(/\n\s+at /);
    }
    const dataset = await cli(['run', 'examples/hello-world/datasets/hello-world-v0.jsonl', '--no-store']);
    expect(dataset.status).toBe(2);
    expect(dataset.stderr).toMatch(/names no agent; give one with --harness FILE/);
  });
});

describe('harnesseval run: reports and store', () => {
  it('writes every -o report in the format of its extension, creating folders', async () => {
    const dir = await tempDir();
    const outs = ['r.json', 'r.csv', 'r.xml', 'r.md', 'r.jsonl'].map((f) => join(dir, 'out', f));
    const r = await cli([
      'run',
      fixture('basic.yaml'),
      '--no-store',
      '--no-progress',
      ...outs.flatMap((o) => ['-o', o]),
    ]);
    expect(r.status).toBe(0);
    for (const out of outs) expect(r.stderr).toContain(`wrote ${out}`);
    const [json, csv, xml, md, jsonl] = await Promise.all(outs.map((o) => readFile(o, 'utf8')));

    const experiment = ExperimentSchema.parse(JSON.parse(json ?? ''));
    expect(experiment.records.map((x) => x.task_id)).toEqual([
      'greet-ada',
      'greet-bob',
      'greet-cy',
      'farewell-dee',
    ]);
    expect(experiment.status).toBe('completed');

    const rows = parseCsv(csv ?? '');
    expect(rows[0]).toEqual(
      expect.arrayContaining(['test_id', 'status', 'agent_latency_seconds', 'trial_duration_seconds']),
    );
    const idColumn = rows[0]?.indexOf('test_id') ?? -1;
    expect(rows.slice(1).map((row) => row[idColumn])).toEqual([
      'greet-ada',
      'greet-bob',
      'greet-cy',
      'farewell-dee',
    ]);

    const doc = new XMLParser({ ignoreAttributes: false }).parse(xml ?? '') as {
      testsuites?: { testsuite?: { testcase?: { '@_name': string; failure?: unknown }[] } };
    };
    const testcases = doc.testsuites?.testsuite?.testcase ?? [];
    expect(testcases).toHaveLength(4);
    expect(testcases.filter((t) => t.failure !== undefined)).toHaveLength(1);

    expect(md).toMatch(/farewell-dee/);
    expect(md).toMatch(/^#/m);

    const lines = (jsonl ?? '').trim().split('\n');
    expect(lines).toHaveLength(4);
    const records = lines.map((line) => RunRecordSchema.parse(JSON.parse(line)));
    expect(new Set(records.map((x) => x.task_id))).toEqual(
      new Set(['greet-ada', 'greet-bob', 'greet-cy', 'farewell-dee']),
    );
  });

  it('prints the Experiment JSON on stdout with --reporter json', async () => {
    const r = await cli(['run', fixture('basic.yaml'), '--no-store', '--reporter', 'json']);
    expect(r.status).toBe(0);
    const experiment = parseExperiment(r.stdout);
    expect(experiment.records).toHaveLength(4);
    expect(experiment.metrics.map((m) => m.name)).toEqual(
      expect.arrayContaining(['success_rate', 'error_rate']),
    );
    expect(experiment.metrics.find((m) => m.name === 'success_rate')?.value).toBeCloseTo(0.75);
  });

  it('leaves no .harnesseval folder with --no-store, and makes one by default', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'placeholder'), '');
    const none = await cli(['run', fixture('basic.yaml'), '--no-store'], dir);
    expect(none.status).toBe(0);
    expect(await readdir(dir)).toEqual(['placeholder']);
    expect(none.stderr).not.toMatch(/stored experiment/);
    const stored = await cli(['run', fixture('basic.yaml')], dir);
    expect(stored.status).toBe(0);
    expect(existsSync(join(dir, '.harnesseval', 'harnesseval.db'))).toBe(true);
  });
});

describe('harnesseval run: selection and epochs', () => {
  async function ids(flags: string[]): Promise<string[]> {
    const r = await cli([
      'run',
      fixture('basic.yaml'),
      '--no-store',
      '--reporter',
      'json',
      '--no-fail-on-threshold',
      ...flags,
    ]);
    expect(r.status, r.stderr).toBe(0);
    return parseExperiment(r.stdout).records.map((x) => x.task_id);
  }

  it('filters by id glob, tag and difficulty', async () => {
    expect(await ids(['--filter-id', 'greet-*'])).toEqual(['greet-ada', 'greet-bob', 'greet-cy']);
    expect(await ids(['--filter-id', '*-dee'])).toEqual(['farewell-dee']);
    expect(await ids(['--filter-tag', 'short'])).toEqual(['greet-cy']);
    expect(await ids(['--filter-difficulty', 'easy'])).toEqual(['greet-ada', 'farewell-dee']);
    expect(await ids(['--filter-tag', 'greeting', '--filter-difficulty', 'medium'])).toEqual(['greet-bob']);
  });

  it('exits 2 when no task matches the filters', async () => {
    const r = await cli(['run', fixture('basic.yaml'), '--no-store', '--filter-id', 'nothing-*']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no task matches the filters/);
  });

  it('runs every task --epochs times and reports pass@k and pass^k', async () => {
    const r = await cli(['run', fixture('basic.yaml'), '--no-store', '--reporter', 'json', '--epochs', '3']);
    expect(r.status).toBe(0);
    const experiment = parseExperiment(r.stdout);
    expect(experiment.records).toHaveLength(12);
    expect(experiment.records.slice(0, 3).map((x) => [x.task_id, x.epoch])).toEqual([
      ['greet-ada', 0],
      ['greet-ada', 1],
      ['greet-ada', 2],
    ]);
    const names = experiment.metrics.map((m) => m.name);
    const passAt = names.filter((n) => /^pass@\d+$/.test(n));
    const passHat = names.filter((n) => /^pass\^\d+$/.test(n));
    expect(passAt.length).toBeGreaterThan(0);
    expect(passHat.length).toBeGreaterThan(0);
    // A deterministic agent: 3 of 4 tasks always pass, so both are 0.75 at any k.
    for (const name of [...passAt, ...passHat])
      expect(experiment.metrics.find((m) => m.name === name)?.value, name).toBeCloseTo(0.75);
  });

  it('runs a v0 dataset through --harness (the hello-world reference agent and MCP server)', async () => {
    const r = await cli(
      [
        'run',
        'examples/hello-world/datasets/hello-world-v0.jsonl',
        '--harness',
        'examples/hello-world/harness.yaml',
        '--no-store',
        '--reporter',
        'json',
      ],
      ROOT,
    );
    const experiment = parseExperiment(r.stdout);
    expect(experiment.records).toHaveLength(25);
    const passed = experiment.records.filter((x) => x.outcome === 'pass').length;
    expect(passed).toBeGreaterThanOrEqual(24);
    expect(
      experiment.records.every((x) => x.output.tool_calls.some((c) => c.tool_name === 'hello_world')),
    ).toBe(true);
    expect(r.status).toBe(0);
  }, 90_000);
});

describe('harnesseval run: misbehaving agents', () => {
  it('kills a hung cli agent at --timeout and leaves no process behind (grandchild too)', async () => {
    const dir = await tempDir();
    const pids = join(dir, 'pids.json');
    await writeFile(
      join(dir, 'hang.yaml'),
      [
        'version: "1.0"',
        'name: run-hang',
        'agent:',
        '  adapter: cli',
        '  command: node',
        `  args: [${JSON.stringify(join(ROOT, 'test/fixtures/adapters/cli/hang.mjs'))}, ${JSON.stringify(pids)}]`,
        'tests:',
        '  - id: hangs',
        '    input: anything',
      ].join('\n'),
    );
    const started = Date.now();
    const r = await cli([
      'run',
      join(dir, 'hang.yaml'),
      '--no-store',
      '--timeout',
      '1',
      '--reporter',
      'json',
    ]);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.status).toBe(1); // every trial errored
    const record = parseExperiment(r.stdout).records[0];
    expect(record?.outcome).toBe('error');
    expect(record?.error).toMatch(/did not finish in time/);
    const { child, grandchild } = JSON.parse(await readFile(pids, 'utf8')) as {
      child: number;
      grandchild: number;
    };
    await waitFor(() => !alive(child) && !alive(grandchild), 5000);
  });

  it('gives every trial the stderr tail of an MCP server that fails to start, exit 1', async () => {
    const r = await cli(['run', fixture('broken-mcp.yaml'), '--no-store', '--reporter', 'json']);
    expect(r.status).toBe(1);
    const experiment = parseExperiment(r.stdout);
    expect(experiment.records).toHaveLength(2);
    for (const record of experiment.records) {
      expect(record.outcome).toBe('error');
      expect(record.error).toMatch(/exited with code 3/);
      expect(record.error).toContain('fatal: cannot open greeting database');
    }
    expect(r.stderr).toMatch(/every trial failed with an error/);
  });

  it('records 11 MB of text and non-JSON data from an in-process agent as errors; the run goes on', async () => {
    const r = await cli(['run', fixture('misbehaving.yaml'), '--no-store', '--reporter', 'json']);
    expect(r.status).toBe(0);
    const [huge, garbage, ok] = parseExperiment(r.stdout).records;
    expect(huge?.outcome).toBe('error');
    expect(huge?.error).toMatch(/more than the limit/);
    expect(JSON.stringify(huge).length).toBeLessThan(100_000);
    expect(garbage?.outcome).toBe('error');
    expect(garbage?.error).toMatch(/BigInt/);
    expect(ok?.outcome).toBe('pass');
  });

  it('records a flooding or broken-JSON cli agent as errors; the run goes on', async () => {
    const dir = await tempDir();
    const r = await cli([
      'run',
      fixture('misbehaving-cli.yaml'),
      '--store',
      join(dir, 'db.sqlite'),
      '--reporter',
      'json',
    ]);
    expect(r.status).toBe(0);
    const [flood, garbage, ok] = parseExperiment(r.stdout).records;
    expect(flood?.outcome).toBe('error');
    expect(flood?.error).toMatch(/exceeded max_output_bytes/);
    expect(garbage?.outcome).toBe('error');
    expect(garbage?.error).toMatch(/not valid JSON/);
    expect(ok?.outcome).toBe('pass');
    expect(readFileSync(join(dir, 'db.sqlite')).length).toBeLessThan(2 * 1024 * 1024);
  });
});

describe('harnesseval run: subprocess telemetry', () => {
  it('gives a cli harness HARNESSEVAL_EVENTS and merges what it reports into the record', async () => {
    const r = await cli(['run', fixture('reporting-cli.yaml'), '--no-store', '--reporter', 'json']);
    expect(r.status, r.stderr).toBe(0);
    const [record] = parseExperiment(r.stdout).records;
    expect(record?.outcome).toBe('pass');
    expect(record?.trace.agent_calls).toEqual([
      expect.objectContaining({ role: 'writer', model: 'tiny-model', tokens_in: 120, tokens_out: 30 }),
    ]);
    expect(record?.output.tool_calls.map((c) => c.tool_name)).toEqual(['lookup']);
    expect(record?.cost_usd).toBeCloseTo(0.002);
  });
});

describe('harnesseval run: secrets', () => {
  const SECRET = 'sk-live-0123456789abcdefSECRET';
  let server: Server;
  let url = '';
  const seen: string[] = [];

  beforeAll(async () => {
    // Echoes the request back, Authorization header included: the worst case for a leak.
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        seen.push(req.headers.authorization ?? '');
        const input = (JSON.parse(body) as { input: string }).input;
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            answer: `Hello from ${input}`,
            echo: { authorization: req.headers.authorization },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('never writes an env secret used in an http header to the store, exports or reports', async () => {
    const dir = await tempDir();
    const suite = join(dir, 'secret.yaml');
    await writeFile(
      suite,
      [
        'version: "1.0"',
        'name: run-secret',
        'agent:',
        '  adapter: http',
        `  url: ${url}`,
        '  headers:',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the adapter expands it, not JavaScript
        '    Authorization: "Bearer ${MY_API_TOKEN}"',
        'tests:',
        '  - id: one',
        '    input: Ada',
        '    expected: Hello from Ada',
        '  - id: two',
        '    input: Bob',
      ].join('\n'),
    );
    const db = join(dir, 'store', 'db.sqlite');
    const outs = ['r.json', 'r.csv', 'r.xml', 'r.md', 'r.jsonl'].map((f) => join(dir, 'out', f));
    const env = { MY_API_TOKEN: SECRET };
    const r = await cli(
      [
        'run',
        suite,
        '--store',
        db,
        '--reporter',
        'console',
        '--reporter',
        'json',
        ...outs.flatMap((o) => ['-o', o]),
      ],
      dir,
      env,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(seen).toContain(`Bearer ${SECRET}`); // the header really carried it
    const id = /stored experiment (\S+)/.exec(r.stderr)?.[1] ?? '';
    const exported = join(dir, 'export.json');
    const exp = await cli(['runs', 'export', id, '-o', exported, '--store', db], dir, env);
    expect(exp.status, exp.stderr).toBe(0);
    const report = await cli(['report', id, '--format', 'markdown', '--store', db], dir, env);
    expect(report.status, report.stderr).toBe(0);

    const texts = [r.stdout, r.stderr, report.stdout, await readFile(exported, 'utf8')];
    for (const out of outs) texts.push(await readFile(out, 'utf8'));
    for (const name of await readdir(join(dir, 'store')))
      texts.push((await readFile(join(dir, 'store', name))).toString('latin1'));
    for (const text of texts) expect(text).not.toContain(SECRET);
    expect(r.stdout).toContain('[REDACTED:MY_API_TOKEN]');
  });
});

describe('harnesseval run: progress', () => {
  it('prints a plain progress line about every 5% when stderr is not a TTY', async () => {
    const r = await cli(['run', fixture('basic.yaml'), '--no-store', '--epochs', '10', '-j', '2']);
    expect(r.status).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => /^\d+\/40 trials/.test(l));
    expect(lines.length).toBeGreaterThanOrEqual(15);
    expect(lines.length).toBeLessThanOrEqual(21);
    expect(lines.at(-1)).toMatch(/^40\/40 trials\s+30 pass 10 fail 0 error/);
    expect(r.stderr).not.toContain('\r');
  });

  it('prints no progress with --no-progress', async () => {
    const r = await cli(['run', fixture('basic.yaml'), '--no-store', '--epochs', '10', '--no-progress']);
    expect(r.status).toBe(0);
    expect(r.stderr).not.toMatch(/trials/);
  });
});
