import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startCli, waitFor } from '../helpers/run-cli.ts';
import { type BenchmarkTest, STACK_TRACE, scratch, writeBenchmark } from './helpers.ts';

// ReDoS in every place a pattern is accepted: a `regex` evaluator, a JSONPath `match()` or
// `search()` filter (an evaluator option, or a v0 dataset's expected output), a JSON Schema
// `pattern`. Exponential patterns are refused when the file loads (validate, lint and run, one
// rule set, located); polynomial ones run on a match worker and are stopped at the time limit,
// so neither the trial deadline nor SIGTERM is ever blocked.

const POLYNOMIAL = 'a*a*a*a*a*a*a*b';
let dir = '';
let remove = async () => {};
beforeAll(async () => {
  ({ dir, remove } = await scratch('redos'));
});
afterAll(() => remove());

interface Report {
  records: { task_id: string; outcome: string; evaluations: { explanation: string }[] }[];
}

/** Each trial's outcome and evaluator explanations, from the JSON reporter. */
function explained(stdout: string): Record<string, { outcome: string; explanations: string[] }> {
  const report = JSON.parse(stdout) as Report;
  return Object.fromEntries(
    report.records.map((r) => [
      r.task_id,
      { outcome: r.outcome, explanations: r.evaluations.map((e) => e.explanation) },
    ]),
  );
}

const JSON_OUT = ['--no-store', '--no-progress', '--reporter', 'json'];

/** Runs the CLI, killing it after `limitMs`; a kill means the run hung. */
async function bounded(args: string[], limitMs: number) {
  const run = startCli(args, dir);
  const started = Date.now();
  const timer = setTimeout(() => run.child.kill('SIGKILL'), limitMs);
  const result = await run.done;
  clearTimeout(timer);
  return { ...result, ms: Date.now() - started };
}

describe('ReDoS: polynomial patterns are stopped on a worker, never on the main thread', () => {
  it('a JSONPath search() filter over 30,000 characters ends at the time limit, not after minutes', async () => {
    const suite = await writeBenchmark(dir, 'jsonpath-search', [
      {
        id: 'poly',
        input: 'list-a:30000',
        evaluators: [{ name: 'jsonpath', options: { path: `$.list[?search(@.name, '${POLYNOMIAL}')]` } }],
      },
      {
        id: 'ok',
        input: 'list-a:3',
        evaluators: [{ name: 'jsonpath', options: { path: "$.list[?search(@.name, 'a!')]" } }],
      },
    ]);
    const r = await bounded(['run', suite, ...JSON_OUT, '--timeout', '5'], 45_000);
    expect(r.signal, 'the run hung and was killed').toBeNull();
    const trials = explained(r.stdout);
    expect(trials['poly']?.outcome).toBe('fail');
    expect(trials['poly']?.explanations[0]).toMatch(/took longer than 2 s and was stopped/);
    expect(trials['ok']?.outcome).toBe('pass');
    expect(r.stderr).not.toMatch(STACK_TRACE);
  }, 60_000);

  it('SIGTERM ends a run whose JSONPath filter is backtracking', async () => {
    const suite = await writeBenchmark(dir, 'jsonpath-sigterm', [
      {
        id: 'poly',
        input: 'list-a:30000',
        evaluators: [{ name: 'jsonpath', options: { path: `$.list[?search(@.name, '${POLYNOMIAL}')]` } }],
      },
    ]);
    const run = startCli(['run', suite, '--no-store'], dir);
    // The progress header is printed once the run has started (its signal handlers are in place);
    // a fixed delay instead sent SIGTERM before that on a loaded machine. Shortly after, the trial
    // is being judged and the worker is busy; the main thread must still take signals.
    await waitFor(() => /trials? to run/.test(run.stderr()), 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    run.child.kill('SIGTERM');
    const timer = setTimeout(() => run.child.kill('SIGKILL'), 20_000);
    const r = await run.done;
    clearTimeout(timer);
    expect(r.signal, 'SIGTERM was ignored').toBeNull();
    expect(r.stderr).not.toMatch(STACK_TRACE);
  }, 70_000);

  it('16 slow regexes at -j 8 time out side by side on a pool, not one after another', async () => {
    const tests: BenchmarkTest[] = Array.from({ length: 16 }, (_, i) => ({
      id: `slow-${i}`,
      input: 'text-a:30000',
      evaluators: [{ name: 'regex', options: { pattern: POLYNOMIAL } }],
    }));
    const suite = await writeBenchmark(dir, 'regex-pool', tests);
    const r = await bounded(['run', suite, '-j', '8', ...JSON_OUT], 60_000);
    expect(r.signal).toBeNull();
    const stopped = Object.values(explained(r.stdout)).filter((t) =>
      /took longer than 2 s/.test(t.explanations[0] ?? ''),
    );
    expect(stopped).toHaveLength(16);
    // One worker: 16 x 2 s = 32 s of matching. Eight: about 4 s (the rest is start-up).
    expect(r.ms).toBeLessThan(20_000);
  }, 70_000);

  it('a JSON Schema pattern that backtracks is stopped at the time limit', async () => {
    const suite = await writeBenchmark(dir, 'schema-poly', [
      {
        id: 'poly',
        input: 'list-a:30000',
        evaluators: [
          {
            name: 'json_schema',
            options: {
              schema: {
                type: 'object',
                properties: {
                  list: { type: 'array', items: { properties: { name: { pattern: POLYNOMIAL } } } },
                },
              },
            },
          },
        ],
      },
    ]);
    const r = await bounded(['run', suite, ...JSON_OUT], 45_000);
    expect(r.signal).toBeNull();
    expect(explained(r.stdout)['poly']?.explanations[0]).toMatch(
      /validating against the schema took longer than 2 s/,
    );
  }, 60_000);

  it('a trial with many slow patterns spends at most its matching budget', async () => {
    const evaluators = Array.from({ length: 6 }, (_, i) => ({
      name: 'regex',
      options: { pattern: `${'a*'.repeat(7)}b${i}` },
    }));
    const suite = await writeBenchmark(dir, 'regex-budget', [
      { id: 'many', input: 'text-a:30000', evaluators },
    ]);
    const r = await bounded(['run', suite, ...JSON_OUT], 60_000);
    expect(r.signal).toBeNull();
    const explanations = explained(r.stdout)['many']?.explanations ?? [];
    // 6 s of budget: three 2 s time-outs, and the other three are not run at all.
    expect(explanations.filter((e) => /took longer than 2 s/.test(e))).toHaveLength(3);
    expect(explanations.filter((e) => /matching budget of 6 s is spent/.test(e))).toHaveLength(3);
  }, 70_000);
});

describe('ReDoS: exponential patterns are refused when the file loads, located, by validate, lint and run', () => {
  const cases: { kind: string; evaluator: BenchmarkTest['evaluators'] }[] = [
    { kind: 'regex', evaluator: [{ name: 'regex', options: { pattern: '^(a+)+$' } }] },
    {
      kind: 'jsonpath match()',
      evaluator: [{ name: 'jsonpath', options: { path: "$[?match(@.n, '(a+)+b')]" } }],
    },
    {
      kind: 'jsonpath search()',
      evaluator: [{ name: 'jsonpath', options: { path: "$[?search(@.n, '(\\\\w+\\\\s?)+$')]" } }],
    },
    {
      kind: 'json_schema pattern',
      evaluator: [
        { name: 'json_schema', options: { schema: { properties: { n: { pattern: '(a|a)*b' } } } } },
      ],
    },
    {
      kind: 'json_schema patternProperties',
      evaluator: [{ name: 'json_schema', options: { schema: { patternProperties: { '^(x+x+)+y$': {} } } } }],
    },
  ];
  for (const { kind, evaluator } of cases) {
    it(`${kind}`, async () => {
      const name = kind.replace(/\W+/g, '-');
      const suite = await writeBenchmark(dir, `refuse-${name}`, [
        { id: 't1', input: 'x', evaluators: evaluator },
      ]);
      for (const args of [
        ['validate', suite],
        ['lint', suite],
        ['run', suite, '--no-store', '--no-progress'],
      ]) {
        const r = await cli(args, dir);
        expect(r.status, `${args[0]}: ${r.stdout}${r.stderr}`).not.toBe(0);
        expect(`${r.stdout}${r.stderr}`, args[0]).toMatch(new RegExp(`${name}\\.yaml:\\d+:\\d+: .*refused`));
        expect(r.stderr).not.toMatch(STACK_TRACE);
      }
    }, 30_000);
  }

  it('a v0 dataset whose JSONPath expected output has a catastrophic filter', async () => {
    const file = join(dir, 'cases.jsonl');
    const row = {
      schema_version: 'v0',
      case_id: 'jp-bad',
      prompt: 'p',
      tool_name: 't',
      expected_output_type: 'jsonpath',
      expected_output: "$[?match(@.n, '(a+)+b')]",
      difficulty: 'easy',
      provenance: { author: 'a', source_type: 'adversarial' },
      version: 1,
      tags: ['x'],
    };
    await writeFile(file, `${JSON.stringify(row)}\n`);
    for (const args of [
      ['validate', file],
      ['lint', file],
    ]) {
      const r = await cli(args, dir);
      expect(r.status, `${args[0]}: ${r.stdout}${r.stderr}`).not.toBe(0);
      expect(`${r.stdout}${r.stderr}`).toMatch(/cases\.jsonl:1:\d+: .*refused/);
    }
  }, 30_000);
});
