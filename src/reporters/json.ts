import type { Experiment } from '../core/experiment.ts';
import { deliver } from './destination.ts';
import type { ReporterV1 } from './types.ts';

/** The Experiment itself, pretty-printed: the portable record that `ExperimentSchema` reads back. */
export function renderJson(experiment: Experiment): string {
  return `${JSON.stringify(experiment, null, 2)}\n`;
}

export function createJsonReporter(): ReporterV1 {
  return {
    specificationVersion: 'v1',
    name: 'json',
    extensions: ['.json'],
    async report(experiment, options) {
      return deliver(renderJson(experiment), options);
    },
  };
}
