import { isDeepStrictEqual } from 'node:util';
import type { ErrorKind } from '../core/agent-output.ts';
import { HarnessEvalError } from '../core/errors.ts';
import type { Experiment, RunSettings } from '../core/experiment.ts';
import { recordErrorKind } from '../core/overall-score.ts';
import type { RunRecord } from '../core/run-record.ts';
import type { Suite } from '../core/suite.ts';
import type { Task } from '../core/task.ts';
import { filterTasks } from './plan.ts';

/**
 * An experiment stores its plan: the tasks left after the filters (`suite.tasks`), the epochs,
 * the seed, the timeout and the retries. Resuming runs exactly the missing trials of that plan.
 * A resume once took epochs and filters from its own command line: an `--epochs 3` run
 * "completed" with 174 of 300 trials, and a filtered run of 11 tasks grew to 100 records.
 */
const PLAN: readonly { readonly field: keyof RunSettings; readonly flag: string }[] = [
  { field: 'epochs', flag: '--epochs' },
  { field: 'timeout_seconds', flag: '--timeout' },
  { field: 'retries', flag: '--retries' },
  { field: 'seed', flag: '--seed' },
  { field: 'filters', flag: '--filter-id/--filter-tag/--filter-difficulty' },
];

function shown(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/**
 * The settings of a resumed run: the stored plan, and the concurrency asked for now (or the
 * stored one). A plan setting given now that differs from the stored one is refused (`usage`).
 */
export function resumedSettings(
  stored: Pick<Experiment, 'id' | 'settings'>,
  given: Partial<RunSettings>,
  flag = '--resume',
): RunSettings {
  const conflicts: string[] = [];
  for (const { field, flag } of PLAN) {
    const asked = given[field];
    if (asked === undefined) continue;
    const had = stored.settings[field];
    const same =
      field === 'filters'
        ? isDeepStrictEqual({ ...(asked as object) }, { ...(had as object | undefined) })
        : asked === had;
    if (!same) conflicts.push(`${flag} ${shown(asked)} (it ran with ${shown(had ?? 'none')})`);
  }
  if (conflicts.length > 0) {
    throw new HarnessEvalError(
      'usage',
      `${flag} ${stored.id} continues the stored plan; these options contradict it: ${conflicts.join('; ')}. Leave them out (or give the stored values).`,
      { data: { experimentId: stored.id } },
    );
  }
  return { ...stored.settings, concurrency: given.concurrency ?? stored.settings.concurrency };
}

/** The stored plan's tasks, in its order, taken from the suite as loaded now. */
export function resumedTasks(suite: Suite, stored: Pick<Experiment, 'id' | 'suite' | 'settings'>): Task[] {
  if (stored.suite.tasks.length === 0) return filterTasks(suite.tasks, stored.settings.filters);
  const byId = new Map(suite.tasks.map((task) => [task.id, task]));
  return stored.suite.tasks.map(({ id }) => {
    const task = byId.get(id);
    if (task === undefined) {
      throw new HarnessEvalError(
        'invalid_input',
        `experiment ${stored.id} ran task ${id}, which suite ${suite.id} no longer has; resume needs the same suite file`,
        { data: { experimentId: stored.id, taskId: id } },
      );
    }
    return task;
  });
}

/**
 * Errors that say nothing about the harness and may pass on a second try: infrastructure
 * (`transient`: HTTP 429/5xx, connection resets), timeouts, and checks that could not run
 * (`environment`). `run --retry-errors` runs these trials again.
 */
export const RETRYABLE_ERROR_KINDS: readonly ErrorKind[] = ['transient', 'timeout', 'environment'];

export function isRetryableError(record: RunRecord): boolean {
  const kind = recordErrorKind(record);
  return record.outcome === 'error' && kind !== undefined && RETRYABLE_ERROR_KINDS.includes(kind);
}

/**
 * The settings of a `--retry-errors` run: the stored plan, like a resume, except the timeout and
 * the retries, which may be raised for the trials that timed out or met a flaky service.
 */
export function retriedSettings(
  stored: Pick<Experiment, 'id' | 'settings'>,
  given: Partial<RunSettings>,
): RunSettings {
  const { timeout_seconds, retries, ...plan } = given;
  return {
    ...resumedSettings(stored, plan, '--retry-errors'),
    ...(timeout_seconds === undefined ? {} : { timeout_seconds }),
    ...(retries === undefined ? {} : { retries }),
  };
}
