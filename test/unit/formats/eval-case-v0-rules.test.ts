import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import jsonPathParse from 'jsonpath-rfc9535/parser';
import { describe, expect, it } from 'vitest';
import { DifficultySchema, SourceTypeSchema } from '../../../src/core/task.ts';
import {
  EvalCaseV0Schema,
  ExpectedOutputTypeSchema,
  parseEvalCaseV0,
} from '../../../src/formats/eval-case-v0.ts';
import {
  DIFFICULTIES,
  EXPECTED_OUTPUT_TYPES,
  isSimpleJsonPath,
  isValidEvalCaseV0,
  SOURCE_TYPES,
} from '../../../src/formats/eval-case-v0-rules.ts';

// The zod-free rules must give exactly the schema's verdict: `validate` trusts them alone.

const seedCases: Record<string, unknown>[] = readFileSync('test/fixtures/seeds/hello-world-v0.jsonl', 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as Record<string, unknown>);

function schemaAccepts(value: unknown): boolean {
  return EvalCaseV0Schema.safeParse(value).success;
}

/** Per key, values that sit on either side of one of the schema's rules. */
const EDGES: Record<string, unknown[]> = {
  schema_version: ['v0', 'v1', 'V0', '', null, 0],
  case_id: ['abc', 'ab', '-abc', 'Abc', 'a_b-c', 'a'.repeat(64), 'a'.repeat(65), '', 7],
  prompt: ['', 'x', ' ', null, 1],
  tool_name: ['', 'hello_world', null, 1, ['x']],
  expected_output_type: ['exact', 'regex', 'jsonpath', 'Exact', '', null],
  expected_output: [null, '', '^Hello, .+!$', '(unclosed', '$.greeting', '$..[', '(?i)^hello', '$', 3, {}],
  difficulty: ['easy', 'medium', 'hard', 'extreme', '', null],
  provenance: [
    { author: 'a', source_type: 'synthetic' },
    { author: '', source_type: 'adversarial' },
    { author: 'a', source_type: 'synthetic', extra: 1 },
    { author: 1, source_type: 'synthetic' },
    { source_type: 'adversarial' },
    { author: 'a', source_type: 'human' },
    [],
    null,
  ],
  version: [0, 1, 2, -1, 1.5, 2 ** 53 - 1, 2 ** 53, '1', null],
  tags: [[], ['x'], [1], ['a', null], 'x', null, {}],
  extra: [1, null],
  // A computed key: a plain `__proto__:` here would set the prototype, not a key.
  ['__proto__']: [{}, null],
};

const anyJson = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
);

/** One key set to an edge value (mostly) or any JSON value, or removed. */
const edit = fc.constantFrom(...Object.keys(EDGES)).chain((key) =>
  fc.record({
    key: fc.constant(key),
    value: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...(EDGES[key] ?? [null])) },
      { weight: 1, arbitrary: anyJson },
    ),
    remove: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
  }),
);

/** A seed case with some keys set to edge values or removed. */
const mutatedCase = fc
  .record({
    base: fc.constantFrom(...seedCases),
    edits: fc.array(edit, {
      minLength: 0,
      maxLength: 3,
    }),
  })
  .map(({ base, edits }) => {
    const entries = new Map(Object.entries(base));
    for (const edit of edits) {
      if (edit.remove || edit.value === undefined) entries.delete(edit.key);
      else entries.set(edit.key, edit.value);
    }
    // Through JSON text, as a dataset line arrives (`__proto__` becomes an own key there).
    const text = [...entries].map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',');
    return JSON.parse(`{${text}}`) as unknown;
  });

describe('isValidEvalCaseV0 (zod-free rules)', () => {
  it('lists the same enum values as the schema', () => {
    expect(EXPECTED_OUTPUT_TYPES).toEqual(ExpectedOutputTypeSchema.options);
    expect(DIFFICULTIES).toEqual(DifficultySchema.options);
    expect(SOURCE_TYPES).toEqual(SourceTypeSchema.options);
  });

  it('accepts every seed case, as the schema does', () => {
    expect(seedCases.length).toBeGreaterThan(20);
    for (const c of seedCases) {
      expect(schemaAccepts(c)).toBe(true);
      expect(isValidEvalCaseV0(c)).toBe(true);
    }
  });

  it.each([
    ['not an object', 'x'],
    ['an array', [1]],
    ['null', null],
    ['a wrong version', { ...seedCases[0], schema_version: 'v1' }],
    ['an unknown key', { ...seedCases[0], extra: true }],
    ['a null regex', { ...seedCases[0], expected_output_type: 'regex', expected_output: null }],
    [
      'a regex that does not compile',
      { ...seedCases[0], expected_output_type: 'regex', expected_output: '(a' },
    ],
    [
      'a JSONPath that does not parse',
      { ...seedCases[0], expected_output_type: 'jsonpath', expected_output: '$..[' },
    ],
    ['a fractional version', { ...seedCases[0], version: 1.5 }],
    ['a version beyond the safe integers', { ...seedCases[0], version: 2 ** 53 }],
    ['a tag that is not a string', { ...seedCases[0], tags: ['a', 2] }],
  ])('rejects %s, as the schema does', (_name, value) => {
    expect(schemaAccepts(value)).toBe(false);
    expect(isValidEvalCaseV0(value)).toBe(false);
  });

  it('accepts an exact case without expected_output or tags (the defaults)', () => {
    const {
      expected_output: _e,
      tags: _t,
      ...rest
    } = seedCases.find((c) => c['expected_output_type'] === 'exact')!;
    expect(isValidEvalCaseV0(rest)).toBe(true);
    const parsed = parseEvalCaseV0(rest, { file: 'f.jsonl', line: 1 });
    expect(parsed.ok && parsed.value.expected_output).toBeNull();
    expect(parsed.ok && parsed.value.tags).toEqual([]);
  });

  it('gives the schema verdict on mutated cases', () => {
    fc.assert(
      fc.property(mutatedCase, (value) => {
        expect(isValidEvalCaseV0(value)).toBe(schemaAccepts(value));
      }),
      { numRuns: 3000 },
    );
  });

  it('parses to what the schema outputs, as a fresh frozen object', () => {
    for (const c of seedCases) {
      const parsed = parseEvalCaseV0(c, { file: 'f.jsonl', line: 1 });
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) continue;
      expect(parsed.value).toEqual(EvalCaseV0Schema.parse(c));
      expect(Object.keys(parsed.value)).toEqual(Object.keys(EvalCaseV0Schema.parse(c)));
      expect(parsed.value).not.toBe(c);
      expect(Object.isFrozen(parsed.value.provenance)).toBe(true);
    }
  });
});

describe('isSimpleJsonPath (JSONPath checked without the parser)', () => {
  const parses = (path: string) => {
    try {
      jsonPathParse(path);
      return true;
    } catch {
      return false;
    }
  };

  it.each(['$', '$.greeting', '$.a_b.C9', '$[0]', '$[-3].x', '$.*', '$[*].name', '$.items[12]'])(
    'takes %s, which the parser accepts',
    (path) => {
      expect(isSimpleJsonPath(path)).toBe(true);
      expect(parses(path)).toBe(true);
    },
  );

  it.each(['$..x', "$['a b']", '$.a[?@.b]', '$[01]', '$[-0]', '$.9a', 'greeting', '$ .a', '$.a.'])(
    'leaves %s to the parser',
    (path) => {
      expect(isSimpleJsonPath(path)).toBe(false);
    },
  );

  it('never takes a path the parser refuses', () => {
    const segment = fc.oneof(
      fc.stringMatching(/^\.[A-Za-z_][A-Za-z0-9_]{0,6}$/),
      fc.constantFrom('.*', '[*]', '[0]', '[-1]', '[01]', '[-0]', '..', '.', '[', ']', ' ', "['x']", '[1,2]'),
      fc.integer({ min: -1e16, max: 1e16 }).map((n) => `[${n}]`),
      fc.string({ maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), (segments) => {
        const path = `$${segments.join('')}`;
        if (isSimpleJsonPath(path)) expect(parses(path)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
