/**
 * Proves the marketing starter suite is gradable and runs end to end through the built CLI:
 * every automated criterion fails on the rejected drafts (the starter state), passes with the
 * reference solutions, and passes with the scripted copywriter (a cli harness with no model).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadSuite } from '../../src/formats/index.ts';
import { ROOT } from '../helpers/run-cli.ts';
import { expectEveryAutomated, runSuite, type SuiteRun } from '../helpers/suite-runs.ts';

const dir = join(ROOT, 'suites/marketing');
const suiteFile = join(dir, 'suite.yaml');
const suite = await loadSuite(suiteFile);
const automatedCount = suite.tasks.reduce(
  (sum, t) => sum + t.criteria.filter((c) => c.verification === 'automated').length,
  0,
);

let drafts: SuiteRun;
let reference: SuiteRun;
let copywriter: SuiteRun;
beforeAll(async () => {
  [drafts, reference, copywriter] = await Promise.all([
    runSuite(suiteFile, join(dir, 'harness/idle.yaml')),
    runSuite(suiteFile, join(dir, 'harness/reference.yaml')),
    runSuite(suiteFile, join(dir, 'harness/copywriter.yaml')),
  ]);
}, 240_000);

describe('the marketing suite files', () => {
  it('has five pieces, each checked on structure, length, claims and links, with a draft and a solution', async () => {
    expect(suite.tasks.map((t) => t.id)).toEqual([
      'launch-email',
      'landing-hero',
      'search-ads',
      'social-posts',
      'winback-email',
    ]);
    const { rubric } = parse(await readFile(join(dir, 'rubric.yaml'), 'utf8')) as { rubric: object };
    expect(Object.keys(rubric)).toEqual(['brand_voice', 'persuasiveness']);
    for (const task of suite.tasks) {
      const names = task.criteria.flatMap((c) => (c.evaluator === undefined ? [] : [c.evaluator.name]));
      for (const name of ['json_schema', 'text_length', 'contains', 'links'])
        expect(names, task.id).toContain(name);
      // Banned claims: a `contains` criterion, negated.
      expect(task.criteria.some((c) => c.evaluator?.name === 'contains' && c.evaluator.negate)).toBe(true);
      expect(task.criteria.filter((c) => c.verification === 'rubric')).toHaveLength(1);
      expect(existsSync(join(dir, 'codebases/brand-kit/briefs', `${task.id}.md`)), task.id).toBe(true);
      expect(existsSync(join(dir, 'codebases/brand-kit/drafts', `${task.id}.json`)), task.id).toBe(true);
      expect(existsSync(join(dir, 'solutions', `${task.id}.json`)), task.id).toBe(true);
    }
  });
});

describe('the marketing suite through the built CLI', () => {
  it('fails every automated criterion on the rejected drafts', () => {
    expectEveryAutomated(drafts, 'failed', automatedCount);
  });

  it('passes every automated criterion with the reference solutions', () => {
    expectEveryAutomated(reference, 'passed', automatedCount);
  });

  it('passes every automated criterion with the scripted copywriter, rubric criteria pending', () => {
    expectEveryAutomated(copywriter, 'passed', automatedCount);
    for (const record of copywriter.experiment.records) {
      expect(record.outcome, record.task_id).toBe('pending');
      expect(() => JSON.parse(String(record.output.output)), record.task_id).not.toThrow();
    }
  });
});
