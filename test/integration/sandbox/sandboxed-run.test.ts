import { describe, expect, it } from 'vitest';
import type { Experiment } from '../../../src/core/experiment.ts';
import { sandboxAvailability } from '../../../src/sandbox/registry.ts';
import { cli } from '../../helpers/run-cli.ts';

const available = await sandboxAvailability('bwrap');
if (!available.ok) console.warn(`sandboxed run tests skipped: ${available.reason}`);

const TASK = 'test/fixtures/sandbox/task.yaml';
const HARNESS = 'test/fixtures/sandbox/harness.yaml';

async function run(extra: string[]): Promise<Experiment> {
  const result = await cli([
    'run',
    TASK,
    '--harness',
    HARNESS,
    '--no-store',
    '--no-progress',
    '--reporter',
    'json',
    ...extra,
  ]);
  return JSON.parse(result.stdout) as Experiment;
}

describe.skipIf(!available.ok)('a task spec run in bwrap (built CLI)', () => {
  it('withholds the protected tests until the harness has finished, then checks inside the sandbox', async () => {
    const experiment = await run(['--sandbox', 'bwrap']);
    const record = experiment.records[0];
    expect(record?.outcome).toBe('pass');
    expect(record?.metadata['withheld_files']).toEqual(['test/check.sh']);
    expect(record?.criteria[0]?.status).toBe('passed');
  });

  it('without a sandbox the same harness reads the test, and the check catches it', async () => {
    const experiment = await run([]);
    expect(experiment.records[0]?.outcome).toBe('fail');
  });

  it('rejects an unknown --sandbox-network value as wrong usage', async () => {
    const result = await cli([
      'run',
      TASK,
      '--harness',
      HARNESS,
      '--no-store',
      '--sandbox',
      'bwrap',
      '--sandbox-network',
      'bogus',
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("argument 'bogus' is invalid");
  });
});
