import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAICompatibleServer } from '../helpers/openai-compatible-server.ts';
import { BIN, cli, ROOT } from '../helpers/run-cli.ts';

// `llm_rubric` and `human` are catalogued evaluators: `validate` accepted them and `run` refused
// them ("not available in this version yet"). They are criteria now: judged, or pending for grade.

const FIXTURES = join(ROOT, 'test/fixtures/graded');
let dir = '';
let server: Awaited<ReturnType<typeof startOpenAICompatibleServer>>;

const llmBenchmark = (judge: string) =>
  [
    'version: "1.0"',
    'name: llm-check',
    `agent: { adapter: function, module: ${join(ROOT, 'test/fixtures/preflight/echo-agent.mjs')}#echo }`,
    'evaluators:',
    '  - name: contains',
    '    options: { substring: hello }',
    '  - name: llm_rubric',
    `    options: { rubric: ./rubric.yaml${judge} }`,
    'tests:',
    '  - { id: greet, input: hello there }',
    '',
  ].join('\n');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-graded-'));
  server = await startOpenAICompatibleServer(() => '{"level": 4, "rationale": "warm"}');
  await copyFile(join(FIXTURES, 'rubric.yaml'), join(dir, 'rubric.yaml'));
  await writeFile(
    join(dir, 'judged.yaml'),
    llmBenchmark(`, judge: { provider: openai-compatible, model: judge-x, base_url: "${server.baseURL}" }`),
  );
  await writeFile(join(dir, 'unjudged.yaml'), llmBenchmark(''));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the llm_rubric evaluator', () => {
  it('validate and run both accept it; the judge grades the rubric and the trial passes', async () => {
    expect((await cli(['validate', join(dir, 'judged.yaml')])).status).toBe(0);
    const before = server.requests.length;
    const result = await cli([
      'run',
      join(dir, 'judged.yaml'),
      '--no-store',
      '--no-progress',
      '--reporter',
      'json',
    ]);
    expect(result.stderr).not.toContain('not available');
    expect(result.status).toBe(0);
    expect(server.requests.length - before).toBe(1); // one dimension, one sample
    expect(
      server.requests
        .at(-1)
        ?.messages.map((m) => m.content)
        .join('\n'),
    ).toContain('warm and polite');
    const record = JSON.parse(result.stdout).records[0];
    expect(record.outcome).toBe('pass');
    expect(record.criteria).toMatchObject([
      {
        id: 'llm_rubric',
        verification: 'rubric',
        status: 'passed',
        score: 1,
        grades: [{ dimension: 'tone', level: 4 }],
      },
    ]);
    expect(record.scores).toMatchObject({ functional_completeness: 1, rubric: 1, overall: 1 });
  });

  it('without a judge the criterion waits (pending), and a located error names a missing rubric file', async () => {
    const result = await cli(['run', join(dir, 'unjudged.yaml'), '--no-store', '--no-progress']);
    expect(result.stdout).toMatch(/^greet\s+PENDING/m);
    expect(result.status).toBe(0);
    await writeFile(join(dir, 'no-rubric.yaml'), llmBenchmark('').replace('./rubric.yaml', './nowhere.yaml'));
    const missing = await cli(['validate', join(dir, 'no-rubric.yaml')]);
    expect(missing.stderr).toMatch(
      /no-rubric\.yaml:8:\d+: evaluators\[1\]\.options\.rubric: rubric file not found/,
    );
    expect(missing.status).toBe(1);
  });
});

describe('the human evaluator', () => {
  it('is pending after the run and decided by harnesseval grade', async () => {
    const store = join(dir, 'store.db');
    const run = await cli(['run', join(FIXTURES, 'human.yaml'), '--store', store, '--no-progress']);
    expect(run.stderr).not.toContain('not available');
    expect(run.stdout).toMatch(/^greet\s+PENDING/m);
    const id = /stored experiment (\S+)/.exec(run.stderr)?.[1] ?? '';
    expect(id).not.toBe('');
    const graded = spawnSync(process.execPath, [BIN, 'grade', id, '--store', store, '--grader', 'Ann'], {
      input: '4\n',
      encoding: 'utf8',
      cwd: ROOT,
    });
    expect(graded.stdout).toContain('the greeting is friendly');
    expect(graded.status).toBe(0);
    const exported = join(dir, 'human.json');
    expect((await cli(['runs', '--store', store, 'export', id, '-o', exported])).status).toBe(0);
    const record = JSON.parse(await readFile(exported, 'utf8')).records[0];
    expect(record.outcome).toBe('pass');
    expect(record.criteria).toMatchObject([
      { id: 'friendly', verification: 'human', status: 'passed', grades: [{ level: 4, grader: 'Ann' }] },
    ]);
  });
});
