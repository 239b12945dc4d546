import { describe, expect, it } from 'vitest';
import { TaskSchema } from '../../../src/core/task.ts';
import {
  type EvalCaseV0Input,
  EvalCaseV0Schema,
  evalCaseToTask,
  parseEvalCaseV0,
} from '../../../src/formats/eval-case-v0.ts';

const valid: EvalCaseV0Input = {
  schema_version: 'v0',
  case_id: 'test-case-001',
  prompt: 'Greet Alice',
  tool_name: 'hello_world',
  expected_output_type: 'exact',
  expected_output: 'Hello, Alice!',
  difficulty: 'easy',
  provenance: { author: 'tester', source_type: 'hand_written' },
  version: 1,
  tags: ['greeting'],
};

function parse(overrides: Record<string, unknown>, text?: string) {
  return parseEvalCaseV0(
    { ...valid, ...overrides },
    { file: 'cases.jsonl', line: 7, ...(text ? { text } : {}) },
  );
}

function firstError(overrides: Record<string, unknown>) {
  const r = parse(overrides);
  if (r.ok) throw new Error('expected a failure');
  return r.diagnostics[0];
}

describe('EvalCase v0 schema (seed 003 rules)', () => {
  it('accepts a valid case and freezes it deeply', () => {
    const r = parse({});
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.isFrozen(r.value)).toBe(true);
    expect(Object.isFrozen(r.value.provenance)).toBe(true);
    expect(Object.isFrozen(r.value.tags)).toBe(true);
    expect(() => {
      (r.value as { prompt: string }).prompt = 'changed';
    }).toThrow(TypeError);
  });

  it('survives a JSON round trip unchanged', () => {
    const r = parse({});
    if (!r.ok) throw new Error('invalid');
    const again = parseEvalCaseV0(JSON.parse(JSON.stringify(r.value)), { file: 'f', line: 1 });
    expect(again).toEqual(r);
  });

  it('defaults tags to [] and expected_output to null', () => {
    const { tags: _t, expected_output: _e, ...rest } = valid;
    const r = parseEvalCaseV0(rest, { file: 'f', line: 1 });
    expect(r.ok && r.value.tags).toEqual([]);
    expect(r.ok && r.value.expected_output).toBeNull();
  });

  it.each(['v1', 'V0', '0', ''])('rejects schema_version %j', (v) => {
    expect(firstError({ schema_version: v })).toMatchObject({
      path: 'schema_version',
      line: 7,
      expected: '"v0"',
    });
  });

  it.each(['UPPERCASE', 'has spaces', 'ab', '-leading', `a${'b'.repeat(64)}`])('rejects case_id %j', (id) => {
    expect(firstError({ case_id: id })).toMatchObject({
      path: 'case_id',
      expected: 'a string matching ^[a-z0-9][a-z0-9_-]{2,63}$',
    });
  });

  it.each(['abc', '0_a', `a${'b'.repeat(63)}`, 'a-b_c'])('accepts case_id %j', (id) => {
    expect(parse({ case_id: id }).ok).toBe(true);
  });

  it('rejects an empty prompt', () => {
    expect(firstError({ prompt: '' })).toMatchObject({ path: 'prompt', message: 'must not be empty' });
  });

  it('requires tool_name', () => {
    expect(firstError({ tool_name: undefined })).toMatchObject({
      path: 'tool_name',
      message: 'required field is missing',
    });
  });

  it.each(['exact', 'regex', 'jsonpath'])('accepts expected_output_type %s', (t) => {
    const expected = t === 'exact' ? 'Hello' : t === 'regex' ? '^Hello' : '$.name';
    expect(parse({ expected_output_type: t, expected_output: expected }).ok).toBe(true);
  });

  it('rejects an unknown expected_output_type', () => {
    expect(firstError({ expected_output_type: 'semantic' })).toMatchObject({ path: 'expected_output_type' });
  });

  it.each(['regex', 'jsonpath'])('requires a non-null expected_output for %s', (t) => {
    expect(firstError({ expected_output_type: t, expected_output: null })).toMatchObject({
      path: 'expected_output',
      message: `expected_output must not be null when expected_output_type is "${t}"`,
    });
  });

  it('allows a null expected_output for exact', () => {
    expect(parse({ expected_output: null }).ok).toBe(true);
  });

  it('requires a regex that compiles, and accepts a leading (?i)', () => {
    expect(parse({ expected_output_type: 'regex', expected_output: '(?i)hello.*grace' }).ok).toBe(true);
    expect(firstError({ expected_output_type: 'regex', expected_output: '(unclosed' })).toMatchObject({
      path: 'expected_output',
      message: expect.stringContaining('regex does not compile'),
    });
  });

  it('requires a JSONPath that parses (RFC 9535)', () => {
    expect(parse({ expected_output_type: 'jsonpath', expected_output: '$.items[?@.price < 10]' }).ok).toBe(
      true,
    );
    expect(firstError({ expected_output_type: 'jsonpath', expected_output: 'name' })).toMatchObject({
      path: 'expected_output',
      message: expect.stringContaining('JSONPath does not parse'),
    });
  });

  it.each(['trivial', 'EASY', ''])('rejects difficulty %j', (d) => {
    expect(firstError({ difficulty: d })).toMatchObject({ path: 'difficulty' });
  });

  it('rejects an unknown source_type and a missing author', () => {
    expect(firstError({ provenance: { author: 'x', source_type: 'unknown' } })).toMatchObject({
      path: 'provenance.source_type',
    });
    expect(firstError({ provenance: { source_type: 'synthetic' } })).toMatchObject({
      path: 'provenance.author',
    });
  });

  it.each([0, -1, 1.5, '1'])('rejects version %j', (v) => {
    expect(firstError({ version: v })).toMatchObject({ path: 'version' });
  });

  it('rejects non-string tags and unknown fields', () => {
    expect(firstError({ tags: [1] })).toMatchObject({ path: 'tags[0]' });
    expect(firstError({ tag: ['x'] })).toMatchObject({ path: 'tag', message: 'unknown field "tag"' });
  });

  it('reports every problem of a record, at the column of its key', () => {
    const bad = { ...valid, case_id: 'AB', version: 0 };
    const text = JSON.stringify(bad);
    const r = parseEvalCaseV0(bad, { file: 'f', line: 3, text });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics.map((d) => d.path)).toEqual(['case_id', 'version']);
    expect(r.diagnostics[0]?.col).toBe(text.indexOf('"case_id"') + 1);
  });

  it.each([[[1, 2]], [null], ['text'], [42]])('rejects a record that is not an object: %j', (value) => {
    const r = parseEvalCaseV0(value, { file: 'f', line: 2 });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.diagnostics[0]).toMatchObject({ line: 2, col: 1, expected: 'a JSON object (an eval case)' });
  });

  it('is exported as a zod schema usable on its own', () => {
    expect(EvalCaseV0Schema.safeParse(valid).success).toBe(true);
  });
});

describe('evalCaseToTask', () => {
  const where = { file: 'cases.jsonl', line: 4 };
  const toTask = (overrides: Record<string, unknown>) => {
    const r = parse(overrides);
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics));
    return evalCaseToTask(r.value, where);
  };

  it('maps tool_name to a tool-called criterion and exact to exact_match', () => {
    const task = toTask({});
    expect(TaskSchema.parse(task)).toEqual(task);
    expect(task.criteria.map((c) => [c.id, c.evaluator?.name, c.evaluator?.options])).toEqual([
      ['tool-called', 'tool_called', { required: ['hello_world'] }],
      ['expected-output', 'exact_match', { expected: 'Hello, Alice!' }],
    ]);
    expect(task).toMatchObject({
      id: 'test-case-001',
      input: 'Greet Alice',
      difficulty: 'easy',
      source: where,
    });
    expect(task.metadata).toMatchObject({ version: 1, schema_version: 'v0' });
    expect(task.provenance).toEqual({ author: 'tester', source_type: 'hand_written' });
  });

  it('maps regex and jsonpath to their evaluators', () => {
    expect(
      toTask({ expected_output_type: 'regex', expected_output: '^Hi' }).criteria[1]?.evaluator,
    ).toMatchObject({
      name: 'regex',
      options: { pattern: '^Hi' },
    });
    expect(
      toTask({ expected_output_type: 'jsonpath', expected_output: '$.name' }).criteria[1]?.evaluator,
    ).toMatchObject({ name: 'jsonpath', options: { path: '$.name' } });
  });

  it('keeps only the tool criterion for exact with a null expected output', () => {
    const task = toTask({ expected_output: null });
    expect(task.criteria.map((c) => c.id)).toEqual(['tool-called']);
    expect(task.expected).toBeUndefined();
  });
});
