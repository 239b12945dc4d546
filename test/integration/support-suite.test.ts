/**
 * Proves the support starter suite is gradable and runs end to end through the built CLI:
 * every automated criterion fails with a harness that does nothing (the starter state), passes
 * with the reference solutions replayed against the real support-desk MCP server, and passes
 * with the scripted support agent working the tickets through the same server.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSuite } from '../../src/formats/index.ts';
import { ROOT } from '../helpers/run-cli.ts';
import { expectEveryAutomated, runSuite, type SuiteRun } from '../helpers/suite-runs.ts';

const dir = join(ROOT, 'suites/support');
const suiteFile = join(dir, 'suite.yaml');
const suite = await loadSuite(suiteFile);
const AUTOMATED_PER_TASK = 5;

let idle: SuiteRun;
let reference: SuiteRun;
let scripted: SuiteRun;
beforeAll(async () => {
  // Side by side: most of the time is server and Node start-up, which overlaps.
  [idle, reference, scripted] = await Promise.all([
    runSuite(suiteFile, join(dir, 'harness/idle.yaml')),
    runSuite(suiteFile, join(dir, 'harness/reference.yaml')),
    runSuite(suiteFile, join(dir, 'harness/scripted.yaml')),
  ]);
}, 300_000);

describe('the support suite files', () => {
  it('has six tasks, each with four state checks, one trajectory check and one rubric criterion', async () => {
    expect(suite.tasks.map((t) => t.id)).toEqual([
      'refund-damaged-item',
      'partial-damage-quantity',
      'refund-outside-window',
      'escalate-over-limit',
      'already-refunded',
      'where-is-my-order',
    ]);
    const rubric = parse(await readFile(join(dir, 'rubric.yaml'), 'utf8')) as { rubric: object };
    for (const task of suite.tasks) {
      const commands = task.criteria.filter((c) => c.command !== undefined);
      expect(commands.map((c) => c.command?.slice(0, 2))).toEqual(
        Array(4).fill(['node', 'checks/desk-check.mjs']),
      );
      const evaluators = task.criteria.filter((c) => c.evaluator !== undefined);
      expect(evaluators.map((c) => c.evaluator?.name)).toEqual([
        expect.stringMatching(/^(trajectory|tool_called)$/),
      ]);
      const graded = task.criteria.filter((c) => c.verification === 'rubric');
      expect(graded).toHaveLength(1);
      for (const name of graded[0]?.rubric_dimensions ?? [])
        expect(Object.keys(rubric.rubric)).toContain(name);
      expect(task.protected_files).toEqual(['checks/*']);
      expect(existsSync(join(dir, 'solutions', `${task.id}.yaml`)), task.id).toBe(true);
    }
  });
});

describe('the support suite through the built CLI', () => {
  const count = () => suite.tasks.length * AUTOMATED_PER_TASK;

  it('fails every automated criterion when the harness does nothing', () => {
    expectEveryAutomated(idle, 'failed', count());
  });

  it('passes every automated criterion with the reference solutions', () => {
    expectEveryAutomated(reference, 'passed', count());
  });

  it('passes every automated criterion with the scripted agent, whose tool calls are recorded', () => {
    expectEveryAutomated(scripted, 'passed', count());
    for (const record of scripted.experiment.records) {
      expect(record.error, record.task_id).toBeUndefined();
      // The rubric criterion waits for a judge or a person: pending, not failed.
      expect(record.outcome, record.task_id).toBe('pending');
      const called = record.output.tool_calls.map((c) => c.tool_name);
      expect(called.slice(0, 1), record.task_id).toEqual(['get_ticket']);
      expect(called.filter((name) => name === 'issue_refund').length).toBeLessThanOrEqual(1);
    }
    const refunds = scripted.experiment.records.flatMap((r) =>
      r.output.tool_calls
        .filter((c) => c.tool_name === 'issue_refund')
        .map((c) => [r.task_id, c.args['amount']]),
    );
    expect(refunds).toEqual([
      ['refund-damaged-item', 24],
      ['partial-damage-quantity', 19],
    ]);
  });
});
