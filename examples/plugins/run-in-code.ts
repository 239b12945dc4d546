// examples/plugins/run-in-code.ts
/**
 * Registered plugins joining a suite in code: the default set gets `word_limit` and `tool_calls`,
 * the benchmark (which names built-ins only) gets them added, and the run uses them. Run from the
 * repository root (the paths are relative to it); `experiment` is the finished run.
 */
import { loadSuite, registerEvaluator, registerMetric, runExperiment } from 'harnesseval';
import { toolCallsMetric } from './tool-calls-metric.ts';
import { wordLimit } from './word-limit-evaluator.ts';

registerEvaluator(wordLimit);
registerMetric(toolCallsMetric);
const loaded = await loadSuite('examples/plugins/benchmark.yaml'); // names built-ins only
if (loaded.harness === undefined) throw new Error('the benchmark names no agent');
const suite = {
  ...loaded,
  evaluators: [...loaded.evaluators, { name: 'word_limit', options: { max_words: 4 }, negate: false }],
  metrics: [...loaded.metrics, { name: 'tool_calls', options: {} }],
};
const experiment = await runExperiment({
  suite,
  harness: loaded.harness, // or { adapter: 'echo', options: {...}, ... } after registerAdapter
  harnessBaseDir: 'examples/plugins',
  settings: { epochs: 2, concurrency: 2 },
  // store: await openStore(...) to keep it; onEvent for progress; signal to interrupt
});

export { experiment };
