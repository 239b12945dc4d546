/**
 * A plugin module: `harnesseval --plugin examples/plugins/plugin.ts run …` registers these, and
 * then suite and benchmark files can name them like built-ins (see registered-benchmark.yaml).
 */
import { definePlugin } from 'harnesseval/plugin';
import { echoAdapter } from './echo-adapter.ts';
import { toolCallsMetric } from './tool-calls-metric.ts';
import { tsvReporter } from './tsv-reporter.ts';
import { wordLimit } from './word-limit-evaluator.ts';

export default definePlugin({
  evaluators: [wordLimit],
  metrics: [toolCallsMetric],
  adapters: [echoAdapter],
  reporters: [tsvReporter],
});
