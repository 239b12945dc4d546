import { describe, expect, it } from 'vitest';
import { promptfooTime } from '../../../../src/store/importers/promptfoo-eval.ts';
import { promptfooErrorKind } from '../../../../src/store/importers/promptfoo-record.ts';
import { taskIds } from '../../../../src/store/importers/promptfoo-tasks.ts';
import { withoutSecretKeys } from '../../../../src/store/importers/secret-keys.ts';
import { UnmappedFields } from '../../../../src/store/importers/unmapped.ts';

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
