/**
 * A user metric: mean number of tool calls per trial, averaged per task first (so epochs do not
 * inflate n), with its standard error and 95% interval. Empty input gives "n/a", never NaN.
 */
import { defineMetric, meanOverTasks, noOptions } from 'harnesseval/plugin';

export const toolCallsMetric = defineMetric({
  name: 'tool_calls',
  direction: 'lower_is_better',
  description: 'mean tool calls per trial',
  options: noOptions,
  create() {
    const shape = {
      name: 'tool_calls',
      direction: 'lower_is_better',
      description: 'mean tool calls per trial',
      unit: 'count',
    } as const;
    return {
      specificationVersion: 'v1',
      name: 'tool_calls',
      direction: 'lower_is_better',
      calculate(input) {
        const trials = input.records
          .filter((r) => r.outcome !== 'pending')
          .map((r) => ({ task: r.task_id, value: r.output.tool_calls.length }));
        return meanOverTasks(input, trials, shape);
      },
    };
  },
});
