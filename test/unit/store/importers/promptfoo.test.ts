import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importPromptfoo } from '../../../../src/store/importers/promptfoo.ts';
import { promptfooTime } from '../../../../src/store/importers/promptfoo-eval.ts';
import { promptfooErrorKind } from '../../../../src/store/importers/promptfoo-record.ts';
import { taskIds } from '../../../../src/store/importers/promptfoo-tasks.ts';
import { withoutSecretKeys } from '../../../../src/store/importers/secret-keys.ts';
import { UnmappedFields } from '../../../../src/store/importers/unmapped.ts';
import { openSqliteDatabase } from '../../../../src/store/sqlite-driver.ts';
import { EVAL_A } from '../../../fixtures/import/promptfoo/evals.mjs';
import { migrate } from '../../../fixtures/import/promptfoo/make-db.mjs';

describe('promptfooErrorKind', () => {
  it.each([
    ['API error: 429 Too Many Requests', 'infra'],
    ['Request failed after 4 retries: TypeError: fetch failed', 'infra'],
    ['API call error: Error: connect ECONNREFUSED 127.0.0.1:11434', 'infra'],
    ['HTTP call error: 503 Service Unavailable', 'infra'],
    ['Error: 401 Incorrect API key provided', 'infra'],
    ['Evaluation timed out after 30000ms', 'timeout'],
    ["TypeError: Cannot read properties of undefined (reading 'trim')", 'agent'],
    ['Error parsing output as JSON', 'agent'],
  ])('%s is %s', (text, kind) => {
    expect(promptfooErrorKind(text)).toBe(kind);
  });
});

describe('taskIds', () => {
  it('uses the description, else the vars, the same for key order; a shared description adds a hash', () => {
    const unmapped = new UnmappedFields();
    const tests = [
      { description: 'one', vars: { a: '1' } },
      { vars: { a: '1', b: 'x' } },
      { vars: { b: 'x', a: '1' } },
      { description: 'dup', vars: { a: '1' } },
      { description: 'dup', vars: { a: '2' } },
    ];
    const id = taskIds(tests, unmapped);
    expect(id(tests[0]!)).toBe('one');
    expect(id(tests[1]!)).toMatch(/^a=1 b=x#[0-9a-f]{8}$/);
    expect(id(tests[2]!)).toBe(id(tests[1]!));
    expect(id(tests[3]!)).not.toBe(id(tests[4]!));
    expect(id(tests[3]!)).toMatch(/^dup#[0-9a-f]{8}$/);
    expect(unmapped.list().map((u) => u.field)).toEqual(['testCase.description']);
  });
});

describe('withoutSecretKeys', () => {
  it('redacts credential-named keys at any depth and drops provider configs', () => {
    const value = {
      provider: { id: 'openai:gpt-4.1', config: { apiKey: 'sk-1', temperature: 0 } },
      headers: { Authorization: 'Bearer t', 'x-api-key': 'k', accept: 'json' },
      nested: [{ api_key: 'k2', max_tokens: 10, token: 't2' }],
    };
    expect(withoutSecretKeys(value)).toEqual({
      provider: { id: 'openai:gpt-4.1' },
      headers: { Authorization: '[redacted]', 'x-api-key': '[redacted]', accept: 'json' },
      nested: [{ api_key: '[redacted]', max_tokens: 10, token: '[redacted]' }],
    });
  });
});

describe('promptfooTime', () => {
  it('reads milliseconds, seconds and SQLite CURRENT_TIMESTAMP text as UTC', () => {
    expect(promptfooTime(1764496800000)).toBe('2025-11-30T10:00:00.000Z');
    expect(promptfooTime(1764496800)).toBe('2025-11-30T10:00:00.000Z');
    expect(promptfooTime('2025-11-30 10:00:00')).toBe('2025-11-30T10:00:00.000Z');
    expect(promptfooTime('not a time')).toBeUndefined();
    expect(promptfooTime(null)).toBeUndefined();
  });
});

describe('importPromptfoo on a database (real SQLite files)', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'he-promptfoo-unit-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const database = (name: string, fill: (db: ReturnType<typeof openSqliteDatabase>) => void) => {
    const path = join(dir, name);
    const db = openSqliteDatabase(path);
    migrate(db);
    fill(db);
    db.close();
    return path;
  };

  it('reads an eval written before eval_results existed from its evals.results summary', async () => {
    const [first] = EVAL_A.results as { testIdx: number }[];
    const summary = { version: 3, timestamp: '2026-11-30T10:00:00.000Z', results: [first], table: {} };
    const path = database('v3.db', (db) => {
      db.prepare('INSERT INTO evals (id, created_at, results, config) VALUES (?, ?, ?, ?)').run(
        'eval-old',
        Date.parse('2024-06-01T00:00:00Z'),
        JSON.stringify(summary),
        JSON.stringify({ description: 'capitals' }),
      );
      // An eval with nothing to import is counted, not an error while another has results.
      db.prepare('INSERT INTO evals (id, created_at, results, config) VALUES (?, ?, ?, ?)').run(
        'eval-empty',
        Date.parse('2024-06-02T00:00:00Z'),
        '{}',
        '{}',
      );
    });
    const imported = await importPromptfoo(path, { shown: 'v3.db' });
    expect(imported.experiments).toHaveLength(1);
    expect(imported.experiments[0]!.metadata['promptfoo']).toMatchObject({
      eval_id: 'eval-old',
      results_version: 3,
    });
    expect(imported.experiments[0]!.records[0]).toMatchObject({
      task_id: 'capital of France',
      outcome: 'pass',
    });
    expect(imported.unmapped).toContainEqual(expect.objectContaining({ field: 'evals', count: 1 }));
  });

  it('a database with no results at all is an error naming it', async () => {
    const path = database('empty.db', () => undefined);
    await expect(importPromptfoo(path, { shown: 'empty.db' })).rejects.toMatchObject({
      diagnostics: [
        expect.objectContaining({ file: 'empty.db', path: 'eval_results', message: 'no results in it' }),
      ],
    });
  });

  it('a JSON column of the wrong shape is located inside its row and column', async () => {
    const path = database('bad-json.db', (db) => {
      db.prepare('INSERT INTO evals (id, created_at, results, config) VALUES (?, ?, ?, ?)').run(
        'e1',
        1,
        '{}',
        '{}',
      );
      db.prepare(
        'INSERT INTO eval_results (id, eval_id, prompt_idx, test_idx, test_case, prompt, provider, success, score, grading_result) VALUES (?, ?, 0, 0, ?, ?, ?, 1, 1, ?)',
      ).run('r1', 'e1', '{"vars":{}}', '{"raw":"p"}', '{"id":"echo"}', '{"pass": true, "score": "high"}');
    });
    await expect(importPromptfoo(path, { shown: 'bad.db' })).rejects.toMatchObject({
      diagnostics: [
        expect.objectContaining({
          file: 'bad.db[eval_results id=r1].grading_result',
          line: 1,
          path: 'score',
        }),
      ],
    });
  });
});
