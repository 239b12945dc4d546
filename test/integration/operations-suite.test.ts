/**
 * Proves the operations starter suite is gradable and runs end to end through the built CLI:
 * every automated criterion (a command in the task's workspace) fails when the harness does
 * nothing, passes after the reference solutions (solutions/<task>.sh), and passes after the
 * scripted operator, which diagnoses from the health checks and logs and fixes by rule.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSuite } from '../../src/formats/index.ts';
import { ROOT } from '../helpers/run-cli.ts';
import { expectEveryAutomated, runSuite, type SuiteRun } from '../helpers/suite-runs.ts';

const dir = join(ROOT, 'suites/operations');
const suiteFile = join(dir, 'suite.yaml');
const suite = await loadSuite(suiteFile);
const automatedCount = suite.tasks.reduce(
  (sum, t) => sum + t.criteria.filter((c) => c.verification === 'automated').length,
  0,
);

let idle: SuiteRun;
let reference: SuiteRun;
let operator: SuiteRun;
beforeAll(async () => {
  [idle, reference, operator] = await Promise.all([
    runSuite(suiteFile, join(dir, 'harness/idle.yaml')),
    runSuite(suiteFile, join(dir, 'harness/reference.yaml')),
    runSuite(suiteFile, join(dir, 'harness/scripted.yaml')),
  ]);
}, 240_000);

describe('the operations suite files', () => {
  it('has five runbooks whose checks are Node or POSIX sh commands with workspace-relative paths', () => {
    expect(suite.tasks.map((t) => t.id)).toEqual([
      'fix-service-config',
      'fix-failing-cron',
      'log-triage-root-cause',
      'rollback-bad-release',
      'free-disk-space',
    ]);
    for (const task of suite.tasks) {
      const commands = task.criteria.flatMap((c) => (c.command === undefined ? [] : [c.command]));
      expect(commands.length, task.id).toBeGreaterThanOrEqual(2);
      for (const [program, script, ...args] of commands) {
        expect(['node', 'sh'], task.id).toContain(program);
        expect(script, task.id).toMatch(/^(bin|checks)\/[\w-]+\.(mjs|sh)$/);
        expect(existsSync(join(task.files['codebase'] ?? '', script ?? '')), `${task.id}: ${script}`).toBe(
          true,
        );
        for (const arg of args) expect(arg.startsWith('/'), task.id).toBe(false);
      }
      expect(task.protected_files, task.id).toContain('checks/*');
      expect(existsSync(join(dir, 'solutions', `${task.id}.sh`)), task.id).toBe(true);
      expect(
        task.criteria.filter((c) => c.verification === 'rubric'),
        task.id,
      ).toHaveLength(1);
    }
  });
});

describe('the operations suite through the built CLI', () => {
  it('fails every automated criterion when the harness does nothing', () => {
    expectEveryAutomated(idle, 'failed', automatedCount);
  });

  it('passes every automated criterion after the reference solutions', () => {
    expectEveryAutomated(reference, 'passed', automatedCount);
  });

  it('passes every automated criterion after the scripted operator, which reports what it did', () => {
    expectEveryAutomated(operator, 'passed', automatedCount);
    const said = Object.fromEntries(
      operator.experiment.records.map((r) => [r.task_id, String(r.output.output)]),
    );
    expect(said['fix-service-config']).toContain('`workers` was written in words ("four"); set it to 4');
    expect(said['rollback-bad-release']).toContain('releases/CURRENT: v1.5.0 -> v1.4.2');
    expect(said['log-triage-root-cause']).toContain(
      'correlated the first 502 (14:02) with the v2.14.0 deploy (14:00)',
    );
  });
});
