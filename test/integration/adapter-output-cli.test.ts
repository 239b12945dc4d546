import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Experiment } from '../../src/core/experiment.ts';
import { cli } from '../helpers/run-cli.ts';

// A plugin adapter's output is checked where the runner receives it (runner/attempt.ts): one
// that is no AgentOutput is its trial's `invalid_output` error, one without the schema's
// defaults gets them, and the run goes on. Before, a trace without its arrays ended the run.

const dir = mkdtempSync(join(tmpdir(), 'harnesseval-adapter-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a plugin adapter that returns malformed outputs (built CLI)', () => {
  it('errors only the trials it lied on and stores the others with their defaults', async () => {
    const out = join(dir, 'out.json');
    const r = await cli([
      '--plugin',
      'test/fixtures/plugins/lying-adapter.mjs',
      'run',
      'test/fixtures/plugins/lying-adapter.yaml',
      '--no-store',
      '--no-progress',
      '-o',
      out,
    ]);
    expect(r.stderr).not.toMatch(/TypeError|\n\s+at /);
    expect(r.status).toBe(0);
    const experiment = JSON.parse(readFileSync(out, 'utf8')) as Experiment;
    const byTask = new Map(experiment.records.map((record) => [record.task_id, record]));
    expect(byTask.get('honest')?.outcome).toBe('pass');
    expect(byTask.get('lie')).toMatchObject({ outcome: 'error', output: { error_kind: 'invalid_output' } });
    expect(byTask.get('lie')?.error).toMatch(/^the adapter returned an invalid AgentOutput: output: /);
    expect(byTask.get('partial')?.outcome).toBe('pass');
    expect(byTask.get('partial')?.trace.agent_calls).toEqual([
      { role: 'planner', tokens_in: 0, tokens_out: 0, cached_tokens: 0, metadata: {} },
    ]);
  });
});
