/**
 * Runs a starter suite through the built CLI (`npx tsdown` first) with one harness and reads the
 * experiment back from its JSON report: the shared part of the suites' proof tests.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Experiment } from '../../src/core/experiment.ts';
import { cli } from './run-cli.ts';

export interface SuiteRun {
  readonly experiment: Experiment;
  readonly status: number | null;
  readonly stderr: string;
}

/** `harnesseval run SUITE --harness HARNESS` with no store, a generous timeout, JSON out. */
export async function runSuite(
  suite: string,
  harness: string,
  extra: readonly string[] = [],
): Promise<SuiteRun> {
  const dir = await mkdtemp(join(tmpdir(), 'harnesseval-suite-run-'));
  try {
    const out = join(dir, 'experiment.json');
    const result = await cli([
      'run',
      suite,
      '--harness',
      harness,
      '--no-store',
      '--no-progress',
      '--no-fail-on-threshold',
      '--timeout',
      '240',
      '-j',
      '3',
      '-o',
      out,
      ...extra,
    ]);
    const text = await readFile(out, 'utf8').catch(() => '');
    if (text === '')
      throw new Error(`no report (status ${result.status}):\n${result.stderr}\n${result.stdout}`);
    return { experiment: JSON.parse(text) as Experiment, status: result.status, stderr: result.stderr };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Each automated criterion of each task, with its status and why, as `task/criterion`. */
export function automatedResults(run: SuiteRun): Map<string, { status: string; why: string }> {
  const results = new Map<string, { status: string; why: string }>();
  for (const record of run.experiment.records)
    for (const criterion of record.criteria)
      if (criterion.verification === 'automated')
        results.set(`${record.task_id}/${criterion.id}`, {
          status: criterion.status,
          why: `${criterion.explanation}\n${criterion.output_tail ?? ''}`.trim(),
        });
  return results;
}

/** Every automated criterion has this status (reported one by one, so a failure names the criterion). */
export function expectEveryAutomated(
  run: SuiteRun,
  status: 'passed' | 'failed',
  expectedCount: number,
): void {
  const results = automatedResults(run);
  expect(results.size, `automated criteria in the run\n${run.stderr}`).toBe(expectedCount);
  for (const [key, result] of results)
    expect(`${key}: ${result.status}`, result.why).toBe(`${key}: ${status}`);
}
