import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentV1 } from '../../src/adapters/types.ts';
import { HarnessConfigSchema } from '../../src/core/harness-config.ts';
import { SuiteSchema } from '../../src/core/suite.ts';
import { getReporter, reporterNames } from '../../src/reporters/registry.ts';
import { runExperiment } from '../../src/runner/runner.ts';
import { experimentToJson, parseExperimentJson } from '../../src/store/json-io.ts';
import { SqliteStore } from '../../src/store/sqlite-store.ts';
import { MAX_DATA_DEPTH } from '../../src/util/json-depth.ts';
import { scratch } from './helpers.ts';

// The record pipeline (adapter result -> record -> store -> read back -> every reporter) over
// seeded random agent results: deep, wide and long values, odd strings, and structures that are
// not JSON. Nothing may throw; data deeper than MAX_DATA_DEPTH is that trial's output_too_deep.

const SEED = 20261201;
const TRIALS = 120;

let dir = '';
let remove = async () => {};
beforeAll(async () => {
  ({ dir, remove } = await scratch('pipeline'));
});
afterAll(() => remove());

function nest(depth: number, leaf: unknown, asObject: boolean): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = asObject ? { k: value } : [value];
  return value;
}

const oddString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }), // lone surrogates, U+FFFE, NUL, ESC
  fc.constantFrom(
    '<script>alert(1)</script>',
    '![i](http://127.0.0.1:9/p.png)',
    '=HYPERLINK("http://x")',
    ']]>',
    '\u2028\u2029',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal reference, as an agent might echo it
    '${OPENAI_API_KEY}',
  ),
  fc.integer({ min: 100_000, max: 400_000 }).map((n) => 'x'.repeat(n)),
);

/** What a harness might return: JSON of any shape, or deep, wide, long and non-JSON values. */
const agentResult: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }),
  oddString,
  fc
    .record({
      depth: fc.integer({ min: MAX_DATA_DEPTH - 20, max: 60_000 }),
      object: fc.boolean(),
      leaf: oddString,
    })
    .map(({ depth, object, leaf }) => nest(depth, leaf, object)),
  fc.integer({ min: 1000, max: 50_000 }).map((n) => ({ items: Array.from({ length: n }, (_, i) => i) })),
  fc.record({
    output: fc.jsonValue({ maxDepth: 3 }),
    metadata: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })),
  }),
  fc.record({
    output: oddString,
    tool_calls: fc.array(
      fc.record({ tool_name: fc.string(), args: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })) }),
      { maxLength: 3 },
    ),
  }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 10n, () => 1, Symbol('s'), new Date(0), undefined),
);

describe('record pipeline fuzz', () => {
  it(`${TRIALS} seeded agent results: stored, read back and rendered by every reporter without a throw`, async () => {
    const results = fc.sample(agentResult, { seed: SEED, numRuns: TRIALS });
    const suite = SuiteSchema.parse({
      id: 'fuzz',
      tasks: results.map((_, i) => ({ id: `r${i}`, input: String(i), expected: 'x' })),
    });
    // An in-process function harness: what it returns goes through normalizeAgentResult.
    const { createAgent } = await import('../../src/adapters/registry.ts');
    const module = join(dir, 'fuzz-agent.mjs');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(module, 'export const run = (input) => globalThis.__fuzzResults[Number(input)];\n');
    (globalThis as { __fuzzResults?: unknown[] }).__fuzzResults = results;
    const harness = HarnessConfigSchema.parse({
      name: 'fuzz',
      version: '1',
      adapter: 'function',
      options: { module: `${module}#run` },
    });
    const agent: AgentV1 = await createAgent(harness, { baseDir: dir, env: {} });
    const store = new SqliteStore(join(dir, 'fuzz.db'), { env: {} });
    const experiment = await runExperiment({ suite, harness, agent, store, settings: { concurrency: 4 } });
    expect(experiment.records).toHaveLength(TRIALS);
    const stored = await store.getExperiment(experiment.id);
    await store.close();
    expect(stored?.records).toHaveLength(TRIALS);

    const kinds = new Set(stored?.records.map((r) => r.output.error_kind ?? 'none'));
    expect(kinds.has('output_too_deep')).toBe(true);
    expect(kinds.has('invalid_output')).toBe(true);
    expect(kinds.has('none')).toBe(true);
    for (const record of stored?.records ?? [])
      if (record.output.error_kind === 'output_too_deep') expect(record.error).toMatch(/nests more than 512/);
    const json = experimentToJson(stored ?? experiment);
    expect(parseExperimentJson(json, 'fuzz.json').records).toHaveLength(TRIALS);
    for (const name of reporterNames()) {
      const reporter = await getReporter(name);
      const text = await reporter.report(stored ?? experiment, { color: false, width: 100 });
      expect(typeof text, name).toBe('string');
    }
  }, 120_000);
});
