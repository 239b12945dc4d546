import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { echoAdapter } from '../../examples/plugins/echo-adapter.ts';
import { toolCallsMetric } from '../../examples/plugins/tool-calls-metric.ts';
import { renderTsv, tsvReporterEntry } from '../../examples/plugins/tsv-reporter.ts';
import { wordLimit } from '../../examples/plugins/word-limit-evaluator.ts';
import { registerAdapter } from '../../src/adapters/index.ts';
import { AgentOutputSchema } from '../../src/core/agent-output.ts';
import type { Experiment } from '../../src/core/experiment.ts';
import type { Suite } from '../../src/core/suite.ts';
import { createEvaluator, registerEvaluator } from '../../src/evaluators/index.ts';
import { loadSuite, validateFile } from '../../src/formats/index.ts';
import { MetricRegistry, registerMetric } from '../../src/metrics/index.ts';
import { getReporter, registerReporter, reporterForFile } from '../../src/reporters/index.ts';
import { runExperiment } from '../../src/runner/runner.ts';

const BENCHMARK = 'examples/plugins/benchmark.yaml';
let unregisterEvaluator = () => {};
let unregisterAdapter = () => {};

beforeAll(() => {
  unregisterEvaluator = registerEvaluator(wordLimit);
  registerMetric(toolCallsMetric);
  unregisterAdapter = registerAdapter(echoAdapter);
  registerReporter('tsv', tsvReporterEntry);
});

afterAll(() => {
  unregisterEvaluator();
  unregisterAdapter();
});

function record(experiment: Experiment, id: string) {
  const found = experiment.records.find((r) => r.task_id === id);
  if (found === undefined) throw new Error(`no record for ${id}`);
  return found;
}

describe('the word_limit evaluator (the tests every evaluator needs)', () => {
  const task = {
    id: 't',
    input: 'x',
    criteria: [],
    evaluators: [],
    tags: [],
    weight: 1,
    files: {},
    metadata: {},
  };
  const env = { baseDir: '.', env: {} };
  const judge = async (output: unknown, options: Record<string, unknown>, negate = false) => {
    const evaluator = await createEvaluator({ name: 'word_limit', options, negate }, env);
    return evaluator.evaluate({
      task,
      output: AgentOutputSchema.parse(output),
      signal: new AbortController().signal,
    });
  };

  it('passes within the limit and fails over it', async () => {
    expect(await judge({ output: 'one two' }, { max_words: 2 })).toMatchObject({ passed: true, score: 1 });
    expect(await judge({ output: 'one two three' }, { max_words: 2 })).toMatchObject({
      passed: false,
      score: 0,
    });
  });

  it('an errored output scores 0 and says why, even negated', async () => {
    const result = await judge({ output: null, error: 'boom', error_kind: 'agent' }, { max_words: 2 }, true);
    expect(result).toMatchObject({ passed: false, score: 0 });
    expect(result.explanation).toContain('boom');
  });

  it('edge cases: empty output passes, negate flips', async () => {
    expect(await judge({ output: '   ' }, { max_words: 1 })).toMatchObject({
      passed: true,
      details: { words: 0 },
    });
    expect(await judge({ output: 'a b' }, { max_words: 1 }, true)).toMatchObject({ passed: true, score: 1 });
  });

  it('bad options are a configuration error naming the option', async () => {
    await expect(judge({ output: 'a' }, { max_words: 0 })).rejects.toThrow(/options\.max_words/);
    await expect(judge({ output: 'a' }, { max_word: 3 })).rejects.toThrow(/word_limit/);
  });
});

describe('examples/plugins', () => {
  it('the benchmark (function adapter + javascript evaluator) validates', async () => {
    const report = await validateFile(BENCHMARK);
    expect(report.diagnostics).toEqual([]);
    expect(report.count).toBe(3);
  });

  it('a name taken by another plugin or a built-in is refused; the same plugin again is a no-op', () => {
    expect(() => registerEvaluator({ ...wordLimit, name: 'regex' })).toThrow(/built-in/);
    expect(() => registerAdapter({ ...echoAdapter, name: 'http' })).toThrow(
      /a built-in adapter has that name/,
    );
    expect(() => registerEvaluator({ ...wordLimit })).toThrow(
      /an evaluator named "word_limit" is already registered/,
    );
    expect(() => registerAdapter({ ...echoAdapter })).toThrow(
      /an adapter named "echo" is already registered/,
    );
    expect(() => registerReporter('tsv', { ...tsvReporterEntry })).toThrow(
      /a reporter named "tsv" is already registered/,
    );
    // A plugin module imported twice registers the same objects: nothing changes, nothing throws.
    expect(() => registerEvaluator(wordLimit)).not.toThrow();
    expect(() => registerAdapter(echoAdapter)).not.toThrow();
    expect(() => registerReporter('tsv', tsvReporterEntry)).not.toThrow();
  });

  it('runs the function agent, javascript and word_limit evaluators, and the tool_calls metric', async () => {
    const loaded = await loadSuite(BENCHMARK);
    if (loaded.harness === undefined) throw new Error('the benchmark names its agent');
    // Registered plugins can also join a suite in code (files may name them once registered).
    const suite: Suite = {
      ...loaded,
      evaluators: [...loaded.evaluators, { name: 'word_limit', options: { max_words: 4 }, negate: false }],
      metrics: [...loaded.metrics, { name: 'tool_calls', options: {} }],
    };
    const experiment = await runExperiment({
      suite,
      harness: loaded.harness,
      harnessBaseDir: 'examples/plugins',
      settings: { epochs: 2, concurrency: 2 },
    });
    const short = record(experiment, 'short');
    expect(short.outcome).toBe('pass');
    expect(short.output.output).toBe('HELLO THERE, please!');
    expect(short.evaluations.map((e) => [e.evaluator, e.passed])).toEqual([
      ['javascript', true],
      ['word_limit', true],
    ]);
    const long = record(experiment, 'long');
    expect(long.outcome).toBe('fail');
    expect(long.evaluations.find((e) => e.evaluator === 'word_limit')?.explanation).toBe('8 words (limit 4)');
    const empty = record(experiment, 'empty');
    expect(empty.outcome).toBe('error');
    expect(empty.output.error).toBe('nothing to shout');
    const toolCalls = experiment.metrics.find((m) => m.name === 'tool_calls');
    // The errored trial made no tool call: (1 + 1 + 0) / 3 tasks.
    expect(toolCalls?.value).toBeCloseTo(2 / 3);
    expect(toolCalls?.n).toBe(3);
    expect(experiment.metrics.map((m) => m.name)).toEqual([
      'success_rate',
      'accuracy',
      'pass@2',
      'tool_calls',
    ]);
  });

  it('the echo adapter drives a run and reports failures as errored trials, never throws', async () => {
    const suite: Suite = {
      ...(await loadSuite(BENCHMARK)),
      evaluators: [],
      metrics: [{ name: 'tool_calls', options: {} }],
    };
    const experiment = await runExperiment({
      suite,
      harness: {
        schema_version: 1,
        name: 'echo',
        version: '1',
        adapter: 'echo',
        options: { prefix: '> ', fail_on: 'far' },
        agents: [],
        metadata: {},
      },
    });
    expect(record(experiment, 'short').output.output).toBe('> hello there');
    expect(record(experiment, 'long').output.error).toBe('refusing input containing "far"');
    expect(record(experiment, 'long').outcome).toBe('error');
  });

  it('the metric gives n/a on empty input and is registered once only', () => {
    const registry = new MetricRegistry();
    registry.register(toolCallsMetric);
    const result = registry.create('tool_calls').calculate({ records: [], tasks: [], epochs: 1 });
    expect(result.value).toBeNull();
    expect(result.formatted_value).toBe('n/a');
    expect(() => registry.register({ ...toolCallsMetric })).toThrow(/already registered/);
  });

  it('the tsv reporter is chosen by extension, escapes tabs and writes its destination', async () => {
    expect(reporterForFile('out/results.tsv')).toBe('tsv');
    const dir = await mkdtemp(join(tmpdir(), 'he-tsv-'));
    try {
      const suite = await loadSuite(BENCHMARK);
      const experiment = await runExperiment({
        suite: { ...suite, evaluators: [], metrics: [] },
        harness: {
          schema_version: 1,
          name: 'echo',
          version: '1',
          adapter: 'echo',
          options: { fail_on: 'far' },
          agents: [],
          metadata: {},
        },
      });
      const destination = join(dir, 'nested', 'results.tsv');
      const text = await (await getReporter('tsv')).report(experiment, { destination });
      expect(await readFile(destination, 'utf8')).toBe(text);
      const lines = text.split('\n').slice(0, -1);
      expect(lines).toHaveLength(4);
      expect(lines.map((l) => l.split('\t').length)).toEqual([5, 5, 5, 5]);
      const tricky = { ...experiment, records: [{ ...record(experiment, 'long'), error: 'a\tb\nc' }] };
      expect(renderTsv(tricky).split('\n')[1]).toMatch(/^long\t0\terror\t[0-9.]+\ta b c$/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
