import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExperimentSchema } from '../../src/core/experiment.ts';
import { cli, ROOT } from '../helpers/run-cli.ts';

// Cost and OpenTelemetry through the built CLI, on real harnesses: one on the Vercel AI SDK with
// its experimental_telemetry exported by the real OpenTelemetry SDK, and plain function harnesses
// reporting through the trackers.
const FIX = join(ROOT, 'test/fixtures/cost');
const SUITE = join(FIX, 'suite.yaml');

let root = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harnesseval-cost-cli-'));
});
afterAll(async () => rm(root, { recursive: true, force: true }));

/** A harness config in the scratch folder (so its per-trial trace files land there). */
async function harness(name: string, lines: string[]): Promise<string> {
  const file = join(root, `${name}.yaml`);
  await writeFile(file, `name: ${name}\nversion: 1.0.0\n${lines.join('\n')}\n`);
  return file;
}

async function run(harnessFile: string, env: NodeJS.ProcessEnv = {}, extra: string[] = []) {
  const r = await cli(
    ['run', SUITE, '--harness', harnessFile, '--no-store', '--reporter', 'json', ...extra],
    root,
    env,
  );
  if (r.stdout.trim() === '') throw new Error(`no JSON (exit ${r.status}): ${r.stderr}`);
  const experiment = ExperimentSchema.parse(JSON.parse(r.stdout));
  return { ...r, experiment, record: experiment.records[0]! };
}
const costCheck = (record: { evaluations: { evaluator: string; passed: boolean; explanation: string }[] }) =>
  record.evaluations.find((e) => e.evaluator === 'cost');

// mock-model-1 priced by the harness: $1 in, $2 out, $0.1 cache read, $1.25 cache write per million.
// Call 1: 60 fresh + 30 read + 10 written in, 20 out = 60 + 3 + 12.5 + 40 = 115.5; call 2: 150 + 16 = 166.
const VERCEL_COST = (115.5 + 166) / 1e6;
const vercelHarness = (env: string[] = []) =>
  harness(`vercel${env.length}`, [
    'adapter: cli',
    'options:',
    '  command: node',
    `  args: [${JSON.stringify(join(FIX, 'vercel-agent.mjs'))}]`,
    '  trace_file: traces/{trial}.json',
    ...env,
    'pricing:',
    '  as_of: "2026-01-15"',
    '  source: "test price list"',
    '  models:',
    '    mock-model-1: { input: 1, output: 2, cached: 0.1, cache_write: 1.25 }',
  ]);

describe('a Vercel AI SDK harness reporting through OpenTelemetry', () => {
  it('its ai.generateText.doGenerate and ai.toolCall spans become model and tool calls, cache tokens included', async () => {
    const { record } = await run(await vercelHarness());
    expect(record.output.output).toBe('The answer is 3');
    expect(
      record.trace.agent_calls.map((c) => [
        c.role,
        c.model,
        c.tokens_in,
        c.tokens_out,
        c.cached_tokens,
        c.cache_write_tokens ?? 0,
      ]),
    ).toEqual([
      ['developer', 'mock-model-1', 100, 20, 30, 10],
      ['developer', 'mock-model-1', 150, 8, 0, 0],
    ]);
    expect(record.output.tool_calls.map((t) => [t.tool_name, t.id, t.args, t.result])).toEqual([
      ['add', 'call-1', { a: 1, b: 2 }, '3'],
    ]);
    expect(record.metrics).toMatchObject({ tokens_in: 250, tokens_out: 28, agent_calls: 2 });
    expect(record.trace.agent_invocations.map((i) => i.name)).toEqual(['developer']);
  });

  it('its harnesseval.* span events report prompts, human touchpoints and circuit breakers', async () => {
    const { record } = await run(await vercelHarness());
    expect(record.metrics).toMatchObject({
      prompts_unplanned: 1,
      hitl_planned: 1,
      hitl_unplanned: 1,
      human_minutes: 2.5,
      circuit_breakers_fired: 1,
      circuit_breaker_types: ['CB2:review-rejection'],
      first_pass_approval: false,
    });
    // An event that cannot count says why, like a malformed event line.
    expect(record.trace.malformed_events.map((m) => m.error)).toEqual([
      expect.stringMatching(/harnesseval\.human\.action must be review, edit, approve, reject or answer/),
    ]);
  });

  it('the cost evaluator sees the cost priced from the harness’s own price table, with its date and source', async () => {
    const { record } = await run(await vercelHarness());
    expect(record.cost_usd).toBeCloseTo(VERCEL_COST, 12);
    expect(costCheck(record)).toMatchObject({
      passed: true,
      explanation: `cost $${VERCEL_COST.toFixed(6)} <= $0.5`,
    });
    expect(record.metadata).toMatchObject({
      cost_source: 'price_table',
      prices_as_of: '2026-01-15',
      prices_source: 'test price list',
    });
  });

  it('a `cost` event beside the OpenTelemetry calls adds to their priced cost instead of replacing it', async () => {
    const { record } = await run(await vercelHarness(['  env: { COST_EVENT: "1" }']));
    expect(record.cost_usd).toBeCloseTo(VERCEL_COST + 0.0005, 12);
    expect(record.by_role['sandbox']?.cost_usd).toBe(0.0005);
    expect(record.by_role['developer']?.cost_usd).toBeCloseTo(VERCEL_COST, 12);
    expect(record.metadata['cost_source']).toBe('reported+price_table');
  });

  it('`ingest-otel` reads the same file and prints the calls, events and cost', async () => {
    const h = await vercelHarness();
    await run(h, {}, ['--filter-id', 'add']);
    const trace = join(root, 'traces/add_0.json');
    const r = await cli(['ingest-otel', trace], root);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('model calls: 2  tokens: 250 in / 28 out');
    expect(r.stdout).toContain('tool calls: 1');
    expect(r.stdout).toMatch(
      /operator prompts: 1 {2}human touchpoints: 2 {2}circuit breakers: 1 \(CB2:review-rejection\)/,
    );
    // mock-model-1 is not in the built-in table: no figure pretends to be the cost.
    expect(r.stdout).toContain('cost: unknown');
    expect(JSON.parse(await readFile(trace, 'utf8'))).toHaveProperty('resourceSpans');
  });
});

describe('a plain function harness reporting through the trackers', () => {
  const tracked = (options: Record<string, unknown> = {}) =>
    harness(`tracked-${Object.keys(options).join('-') || 'plain'}`, [
      'adapter: function',
      'options:',
      `  module: ${JSON.stringify(`${join(FIX, 'tracked.mjs')}#run`)}`,
      `  options: ${JSON.stringify(options)}`,
    ]);

  it('the cost evaluator sees the cost of its tracked calls (gpt-4o: 10,000 in, 1,000 out = $0.035)', async () => {
    const { record } = await run(await tracked());
    expect(record.cost_usd).toBeCloseTo(0.035, 12);
    expect(costCheck(record)).toMatchObject({ passed: true, explanation: 'cost $0.035000 <= $0.5' });
  });

  it('a call with no price makes the cost partial: counted, marked in every report, not passed as within budget', async () => {
    const file = await tracked({ unpriced: true });
    const { record, experiment } = await run(file);
    expect(record.cost_usd).toBeCloseTo(0.035, 12);
    expect(record.output.usage.unpriced_calls).toBe(1);
    expect(costCheck(record)).toMatchObject({
      passed: false,
      explanation: expect.stringMatching(/^cost partial: .*1 call unpriced/),
    });
    expect(experiment.metrics.find((m) => m.name === 'cost')?.details).toMatchObject({
      partial_trials: 1,
      unpriced_calls: 1,
    });
    const console = await cli(
      [
        'run',
        SUITE,
        '--harness',
        file,
        '--no-store',
        '-o',
        join(root, 'partial.md'),
        '-o',
        join(root, 'partial.html'),
      ],
      root,
    );
    expect(console.stdout).toMatch(/add\s+FAIL\s+\S+\s+\S+\s+\$0\.035 partial/);
    expect(console.stdout).toMatch(/^cost\s.*partial: 1 unpriced call in 1 trial/m);
    expect(console.stdout).toMatch(/^cost_per_task\s.*partial: 1 unpriced call in 1 trial/m);
    expect(await readFile(join(root, 'partial.md'), 'utf8')).toMatch(
      /\| cost \|.*\| partial: 1 unpriced call in 1 trial \|/,
    );
    const html = await readFile(join(root, 'partial.html'), 'utf8');
    expect(html).toMatch(/\$0\.0\d+ partial/);
    expect(html).toContain('partial: 1 unpriced call in 1 trial');
  });

  it('cache writes are priced: the review’s Claude transcript costs its reported $0.0588465', async () => {
    const { record } = await run(await tracked({ claude: true }));
    // gpt-4o's $0.035 plus the Claude call.
    expect(record.cost_usd).toBeCloseTo(0.035 + 0.0588465, 12);
    expect(record.output.usage).toMatchObject({ cache_write_tokens: 5350, cached_tokens: 88300 });
  });

  it('a real 11% cost drop at $0.0003 a trial shows in compare, not as `$0.0003 → $0.0003`', async () => {
    const store = join(root, 'small-costs.db');
    const ids: string[] = [];
    // gpt-4o at $2.50 in and $10 out per million: 80 in + 11 out = $0.00031; 70 + 10 = $0.000275.
    for (const [name, tokens] of [
      ['before', [80, 11]],
      ['after', [70, 10]],
    ] as const) {
      const file = await harness(`small-${name}`, [
        'adapter: function',
        'options:',
        `  module: ${JSON.stringify(`${join(FIX, 'tracked.mjs')}#run`)}`,
        `  options: ${JSON.stringify({ tokens })}`,
      ]);
      const r = await cli(['run', SUITE, '--harness', file, '--store', store], root);
      expect(r.stdout).toMatch(/^add\s+PASS\s+\S+\s+\S+\s+\$0\.000(31|275)\s*$/m);
      ids.push(/stored experiment (exp-\S+)/.exec(r.stderr)![1]!);
    }
    const compared = await cli(['compare', ids[0]!, ids[1]!, '--store', store], root);
    expect(compared.status).toBe(0);
    expect(compared.stdout).toMatch(/^cost_per_task\s+\$0\.00031\s+\$0\.000275\s+-11\.3%\s+-\$0\.000035\s/m);
    expect(compared.stdout).toContain('Total cost over 1 shared tasks: $0.00031 → $0.000275 (-$0.000035,');
    expect(compared.stdout).not.toContain('$0.0003 ');
  });
});
