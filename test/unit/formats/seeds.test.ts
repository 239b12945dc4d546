import { describe, expect, it } from 'vitest';
import { SuiteSchema } from '../../../src/core/suite.ts';
import { loadRubric, loadSuite, loadTaskSpec, validateFile } from '../../../src/formats/load.ts';

const seeds = 'test/fixtures/seeds';

describe('the seeds load verbatim', () => {
  it('seed 003: the complete dataset of the seed (26 lines: 10 easy, 8 medium, 8 hard)', async () => {
    const suite = await loadSuite(`${seeds}/hello-world-v0.jsonl`);
    expect(suite.tasks).toHaveLength(26);
    const count = (d: string) => suite.tasks.filter((t) => t.difficulty === d).length;
    expect([count('easy'), count('medium'), count('hard')]).toEqual([10, 8, 8]);
    expect(suite.source).toMatchObject({
      format: 'eval-case-v0',
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(SuiteSchema.parse(JSON.parse(JSON.stringify(suite)))).toEqual(suite);
    const grace = suite.tasks.find((t) => t.id === 'greet-grace-regex');
    expect(grace?.criteria[1]?.evaluator).toMatchObject({
      name: 'regex',
      options: { pattern: '(?i)hello.*grace' },
    });
    const emoji = suite.tasks.find((t) => t.id === 'greet-unicode-emoji-name');
    expect(emoji?.input).toBe('Greet \u{1F600}User');
  });

  it('seed 000: the customer-support benchmark, agent options written inline', async () => {
    // Its agent is a Python module, which this harness cannot create: the format loads verbatim
    // when the agent is replaced (`run --harness`), and validation says the module is missing.
    const suite = await loadSuite(`${seeds}/customer-support.yaml`, { checkAgent: false });
    await expect(loadSuite(`${seeds}/customer-support.yaml`)).rejects.toMatchObject({
      diagnostics: [
        { line: 7, path: 'agent.module', message: expect.stringMatching(/^module file not found/) },
      ],
    });
    expect(suite).toMatchObject({
      id: 'customer-support-eval',
      harness: { adapter: 'generic', options: { module: 'examples.basic.mock_agent:support_agent' } },
      evaluators: [{ name: 'exact_match' }],
      metrics: [{ name: 'success_rate' }, { name: 'accuracy' }, { name: 'agent_latency' }],
      thresholds: { success_rate: { minimum: 0.8 } },
      source: { format: 'benchmark-v1' },
    });
    expect(suite.tasks[0]).toMatchObject({
      id: 'refund-001',
      name: 'refund_intent',
      expected: 'Refund of $49.99 processed',
      evaluators: [{ name: 'contains', options: { substring: 'Refund of $49.99 processed' } }],
      tags: ['billing', 'refunds'],
      source: { line: 22 },
    });
    expect(SuiteSchema.parse(JSON.parse(JSON.stringify(suite)))).toEqual(suite);
  });

  it('seed 004: the auth task spec, refs resolved to absolute paths', async () => {
    const task = await loadTaskSpec(`${seeds}/product-dev/tasks/auth-implementation.yaml`);
    expect(task.id).toBe('task-2026-04-07-001');
    expect(task.criteria.map((c) => c.verification)).toEqual([
      'automated',
      'automated',
      'automated',
      'automated',
      'rubric',
    ]);
    expect(task.files['codebase']).toMatch(/product-dev\/tasks\/repo\/starter-template-v2$/);
    expect(task.files['requirements']).toMatch(/specs\/auth-requirements\.md$/);
    expect(task.input).toContain('Implement user authentication');
    expect(task.estimated_complexity_hours).toBe(8);
  });

  it('seed 004: the product-dev suite with its six task refs and weights', async () => {
    const suite = await loadSuite(`${seeds}/product-dev/suite.yaml`);
    expect(suite.id).toBe('product-dev-core-v1');
    expect(suite.tasks.map((t) => t.weight)).toEqual([1, 0.8, 1, 0.6, 0.8, 0.5]);
    expect(suite.scoring.pass_threshold).toBe(0.75);
    expect(suite.tasks[1]?.criteria[0]?.command).toEqual(['npm', 'test']);
    expect(suite.source?.format).toBe('suite-v1');
  });

  it('the suite hash changes when a referenced task file changes', async () => {
    const { cpSync, mkdtempSync, appendFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(`${tmpdir()}/suite-hash-`);
    cpSync(`${seeds}/product-dev`, dir, { recursive: true });
    const before = (await loadSuite(`${dir}/suite.yaml`)).source?.hash;
    appendFileSync(`${dir}/tasks/crud-api.yaml`, '\n# edited\n');
    const after = (await loadSuite(`${dir}/suite.yaml`)).source?.hash;
    expect(before).toBeDefined();
    expect(after).not.toBe(before);
  });

  it('seed 004: the rubric, levels 1..4 per dimension', async () => {
    const rubric = await loadRubric(`${seeds}/product-dev/rubric.yaml`);
    expect(rubric.dimensions.map((d) => [d.name, d.weight])).toEqual([
      ['code_quality', 0.4],
      ['convention_adherence', 0.3],
    ]);
    expect(rubric.dimensions[0]?.levels[4]).toContain('exemplary');
  });

  it('validateFile reports kind and count for each seed', async () => {
    const reports = await Promise.all(
      [
        'hello-world-v0.jsonl',
        'customer-support.yaml',
        'product-dev/suite.yaml',
        'product-dev/tasks/auth-implementation.yaml',
        'product-dev/rubric.yaml',
      ].map((f) => validateFile(`${seeds}/${f}`)),
    );
    expect(reports.map((r) => [r.kind, r.count, r.diagnostics.length])).toEqual([
      ['eval-case-v0', 26, 0],
      ['benchmark', 0, 1], // the Python agent module (above)
      ['suite', 6, 0],
      ['task-spec', 1, 0],
      ['rubric', 2, 0],
    ]);
  });
});
