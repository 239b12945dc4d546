// Plugin sets passed explicitly (issue 12, item 1): two runs in one process with different plugins
// under the same names, through runExperiment and the loaders, and nothing leaking into the
// default set. Plugins are real definitions run by the real runner; no double stands in for it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFileWithItsPlugins, runWithTwoSets } from '../../../examples/plugins/plugin-sets.ts';
import { HarnessConfigSchema } from '../../../src/core/harness-config.ts';
import { type Suite, SuiteSchema } from '../../../src/core/suite.ts';
import { loadSuite } from '../../../src/formats/index.ts';
import { defineEvaluator, defineMetric, meanOverTasks, noOptions, toResult } from '../../../src/plugin.ts';
import { loadFilePlugins } from '../../../src/plugins/file-plugins.ts';
import { createPluginSet, registerPlugin } from '../../../src/plugins/load.ts';
import { copyPluginSet, defaultPlugins, type PluginSet } from '../../../src/plugins/set.ts';
import { runExperiment } from '../../../src/runner/runner.ts';

const REGISTERED_BENCHMARK = 'examples/plugins/registered-benchmark.yaml';

function defaultHolds(kind: keyof PluginSet, name: string): boolean {
  return defaultPlugins[kind].has(name);
}

/** A metric `marker` whose value is `value` for every trial: which set computed it shows in the result. */
function markerMetric(value: number) {
  const shape = { name: 'marker', direction: 'neutral', description: 'which set', unit: 'count' } as const;
  return defineMetric({
    name: 'marker',
    direction: 'neutral',
    description: 'which set',
    options: noOptions,
    create: () => ({
      specificationVersion: 'v1',
      name: 'marker',
      direction: 'neutral',
      calculate: (input) =>
        meanOverTasks(
          input,
          input.records.map((r) => ({ task: r.task_id, value })),
          shape,
        ),
    }),
  });
}

describe('plugin sets', () => {
  it('two concurrent runs use their own sets: the same evaluator and adapter names mean different things', async () => {
    const [lenient, strict] = await runWithTwoSets();
    expect(lenient.records.map((r) => [r.output.output, r.outcome])).toEqual([['yes', 'pass']]);
    expect(lenient.records[0]?.evaluations[0]?.explanation).toBe('lenient');
    expect(strict.records.map((r) => [r.output.output, r.outcome])).toEqual([['no', 'fail']]);
    expect(strict.records[0]?.evaluations[0]?.explanation).toBe('strict');
    // Neither set leaked into the default one: a run without a set does not know the names.
    expect(defaultHolds('evaluators', 'grader')).toBe(false);
    expect(defaultHolds('adapters', 'bot')).toBe(false);
    const suite = SuiteSchema.parse({
      id: 's',
      tasks: [{ id: 'q1', input: 'x' }],
      evaluators: [{ name: 'grader' }],
    });
    const harness = HarnessConfigSchema.parse({ name: 'h', adapter: 'bot' });
    await expect(runExperiment({ suite, harness })).rejects.toThrow(/unknown evaluator "grader"/);
  });

  it("metric names resolve in the run's set too, concurrently", async () => {
    const suite: Suite = SuiteSchema.parse({
      id: 'metric-sets',
      tasks: [{ id: 't', input: 'a', expected: 'a' }],
      metrics: [{ name: 'marker' }],
    });
    const harness = HarnessConfigSchema.parse({ name: 'echo', adapter: 'function', options: {} });
    const agent = {
      specificationVersion: 'v1' as const,
      name: 'echo',
      run: async (input: unknown) => ({
        output: String(input),
        latency: 0,
        tool_calls: [],
        usage: { tokens_in: 0, tokens_out: 0, cached_tokens: 0, cost_usd: null },
        metadata: {},
      }),
    };
    const [one, two] = await Promise.all(
      [1, 2].map((value) =>
        runExperiment({
          suite,
          harness,
          agent,
          plugins: createPluginSet({ metrics: [markerMetric(value)] }),
        }),
      ),
    );
    expect(one?.metrics.find((m) => m.name === 'marker')?.value).toBe(1);
    expect(two?.metrics.find((m) => m.name === 'marker')?.value).toBe(2);
    expect(defaultHolds('metrics', 'marker')).toBe(false);
  });

  it("a file's plugins: load into the set given, and the file loads only with that set", async () => {
    const experiment = await runFileWithItsPlugins(REGISTERED_BENCHMARK);
    expect(experiment.records.map((r) => [r.task_id, r.outcome])).toEqual([
      ['short', 'pass'],
      ['long', 'fail'],
    ]);
    expect(experiment.metrics.find((m) => m.name === 'tool_calls')?.value).toBe(1);
    for (const [kind, name] of [
      ['evaluators', 'word_limit'],
      ['metrics', 'tool_calls'],
      ['adapters', 'echo'],
      ['reporters', 'tsv'],
    ] as const)
      expect(defaultHolds(kind, name), `${kind} ${name}`).toBe(false);
    // Without the set, the names the module registers are unknown, located at the file.
    await expect(loadSuite(REGISTERED_BENCHMARK)).rejects.toMatchObject({
      code: 'invalid_input',
      diagnostics: expect.arrayContaining([
        expect.objectContaining({ message: expect.stringContaining('unknown adapter "echo"') }),
        expect.objectContaining({ message: expect.stringContaining('unknown evaluator "word_limit"') }),
      ]),
    });
    // Two sets load the same module independently.
    const other = createPluginSet();
    expect(await loadFilePlugins(REGISTERED_BENCHMARK, other)).toEqual([
      'evaluator word_limit',
      'metric tool_calls',
      'adapter echo',
      'reporter tsv',
    ]);
    expect(other.reporters.has('tsv')).toBe(true);
  });

  it("a file's plugins: load whatever escapes spell the key with", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'harnesseval-plugin-key-'));
    try {
      // The suite names the module by a path without the word, so only the escaped key spells it.
      writeFileSync(
        join(dir, 'ext.ts'),
        `export { default } from ${JSON.stringify(resolve('examples/plugins/plugin.ts'))};\n`,
      );
      const files = {
        'json.json': '{"version": "1.0", "name": "j", "plu\\u0067ins": ["./ext.ts"], "tests": []}',
        'yaml.yaml': 'version: "1.0"\nname: y\n"plu\\x67ins": [./ext.ts]\ntests: []\n',
        'none.yaml': 'version: "1.0"\nname: n\ntests: []\n',
      };
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
      for (const name of ['json.json', 'yaml.yaml']) {
        const plugins = createPluginSet();
        expect(await loadFilePlugins(join(dir, name), plugins), name).toContain('adapter echo');
        expect(plugins.adapters.has('echo'), name).toBe(true);
      }
      expect(await loadFilePlugins(join(dir, 'none.yaml'), createPluginSet())).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('registerPlugin is all or nothing: a refused definition takes back the ones before it', () => {
    const plugins = createPluginSet();
    const polite = defineEvaluator({
      name: 'polite',
      description: 'always passes',
      options: noOptions,
      create: () => ({
        specificationVersion: 'v1',
        name: 'polite',
        evaluate: async () => toResult('polite', { score: 1, passed: true, explanation: 'ok', details: {} }),
      }),
    });
    const clash = markerMetric(1);
    expect(() =>
      registerPlugin({ evaluators: [polite], metrics: [{ ...clash, name: 'success_rate' }] }, plugins),
    ).toThrow(/built-in metric has that name/);
    expect(plugins.evaluators.has('polite')).toBe(false);
    expect(registerPlugin({ evaluators: [polite] }, plugins)).toEqual(['evaluator polite']);
    expect(plugins.evaluators.has('polite')).toBe(true);
    expect(defaultHolds('evaluators', 'polite')).toBe(false);
  });

  it('a copy starts with the plugins of its base and keeps what is registered in it to itself', () => {
    const base = createPluginSet({ metrics: [markerMetric(1)] });
    const copy = copyPluginSet(base);
    expect(copy.metrics.has('marker')).toBe(true);
    registerPlugin({ metrics: [{ ...markerMetric(2), name: 'marker_two' }] }, copy);
    expect(copy.metrics.has('marker_two')).toBe(true);
    expect(base.metrics.has('marker_two')).toBe(false);
    expect(copy.evaluators).not.toBe(base.evaluators);
  });
});
