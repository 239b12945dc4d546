import { HarnessEvalError } from '../core/errors.ts';
import type { Experiment } from '../core/experiment.ts';
import type { Suite } from '../core/suite.ts';
import { loadSuite } from './load.ts';

/** The suite an experiment ran, loaded again from its file: grading needs its rubrics and scoring. */
export async function loadExperimentSuite(experiment: Pick<Experiment, 'id' | 'suite'>): Promise<Suite> {
  if (experiment.suite.file === undefined)
    throw new HarnessEvalError('not_found', `experiment ${experiment.id} does not name its suite file`);
  return loadSuite(experiment.suite.file);
}
