// docs/extending.md, "Plugin sets" and "Contract versions": the example it quotes is the real file
// and runs as the doc says, the refusals it quotes are the ones the registries give, and every
// TypeScript block imports only from the package's public entry points.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runFileWithItsPlugins, runWithTwoSets } from '../../examples/plugins/plugin-sets.ts';
import type { EvaluatorDefinition } from '../../src/evaluators/types.ts';
import { noOptions } from '../../src/plugin.ts';
import { createPluginSet } from '../../src/plugins/load.ts';
import { defaultPlugins } from '../../src/plugins/set.ts';

const DOC = 'docs/extending.md';
const POLITE_REF = { name: 'polite', options: {}, negate: false };
const EXAMPLE = 'examples/plugins/plugin-sets.ts';
const doc = readFileSync(DOC, 'utf8');

function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
}

async function refusal(action: () => unknown): Promise<string> {
  try {
    await action();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('expected a refusal');
}

function polite(instance: unknown, declared?: string): EvaluatorDefinition {
  return {
    name: 'polite',
    description: 'test plugin',
    options: noOptions,
    ...(declared === undefined ? {} : { specificationVersion: declared }),
    create: () => instance as never,
  };
}

describe('docs/extending.md: plugin sets and contract versions', () => {
  it(`quotes ${EXAMPLE} exactly`, () => {
    const file = readFileSync(EXAMPLE, 'utf8');
    expect(tsBlocks(doc).find((b) => b.startsWith(`// ${EXAMPLE}\n`))).toBe(file);
  });

  it('every block labelled with an example file is that file, or an excerpt of it', () => {
    const labelled = tsBlocks(doc).flatMap((block) => {
      const label = /^\/\/ (examples\/\S+)[^\n]*\n/.exec(block);
      return label?.[1] === undefined ? [] : [{ path: label[1], body: block.slice(label[0].length) }];
    });
    expect(labelled.length).toBeGreaterThanOrEqual(9);
    for (const { path, body } of labelled) expect(readFileSync(path, 'utf8'), path).toContain(body);
  });

  it('runs the example as the doc says: two sets at once, the default set untouched', async () => {
    const [lenient, strict] = await runWithTwoSets();
    expect(lenient.records.map((r) => [r.output.output, r.outcome])).toEqual([['yes', 'pass']]);
    expect(strict.records.map((r) => [r.output.output, r.outcome])).toEqual([['no', 'fail']]);
    expect(defaultPlugins.evaluators.has('grader')).toBe(false);
    expect(defaultPlugins.adapters.has('bot')).toBe(false);
    const file = await runFileWithItsPlugins('examples/plugins/registered-benchmark.yaml');
    expect(file.records.map((r) => r.outcome)).toEqual(['pass', 'fail']);
    expect(defaultPlugins.evaluators.has('word_limit')).toBe(false);
  });

  it('quotes the specificationVersion refusals the registries give', async () => {
    const plugins = createPluginSet();
    const declaredV2 = await refusal(() => plugins.evaluators.register(polite({}, 'v2')));
    plugins.evaluators.register(polite({ name: 'polite', evaluate: async () => ({}) }));
    const none = await refusal(() => plugins.evaluators.create(POLITE_REF, { baseDir: '.', env: {} }));
    const other = createPluginSet();
    other.evaluators.register(polite({ specificationVersion: 'v1', name: 'polite' }));
    const noMethod = await refusal(() => other.evaluators.create(POLITE_REF, { baseDir: '.', env: {} }));
    for (const message of [declaredV2, none, noMethod]) expect(doc).toContain(`\`${message}\``);
    expect(declaredV2).toContain('has specificationVersion "v2"');
    expect(none).toContain('has no specificationVersion');
    expect(noMethod).toContain('does not implement evaluate');
  });

  // A test example also imports its own test runner (vitest); nothing else from outside.
  it('every TypeScript block imports only harnesseval, harnesseval/plugin, harnesseval/testing or a sibling file', () => {
    const blocks = tsBlocks(doc);
    expect(blocks.length).toBeGreaterThan(5);
    const sources = blocks.flatMap((b) => [...b.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1] ?? ''));
    const outside = sources.filter(
      (s) =>
        !['harnesseval', 'harnesseval/plugin', 'harnesseval/testing', 'vitest'].includes(s) &&
        !s.startsWith('./'),
    );
    expect(outside).toEqual([]);
  });
});

// Last: the example registers into the default set, which the tests above check is untouched.
describe('docs/extending.md: using registered plugins in a run', () => {
  it('runs examples/plugins/run-in-code.ts ("Using registered plugins in a run") as quoted', async () => {
    const { experiment } = await import('../../examples/plugins/run-in-code.ts');
    const outcomes = Object.fromEntries(
      experiment.records.map((r) => [`${r.task_id}#${r.epoch}`, r.outcome]),
    );
    expect(outcomes).toEqual({
      'short#0': 'pass',
      'short#1': 'pass',
      'long#0': 'fail',
      'long#1': 'fail',
      'empty#0': 'error',
      'empty#1': 'error',
    });
    expect(experiment.records.find((r) => r.task_id === 'long')?.evaluations.at(-1)?.explanation).toBe(
      '8 words (limit 4)',
    );
    expect(experiment.metrics.find((m) => m.name === 'tool_calls')?.value).toBeCloseTo(2 / 3);
  });
});
