import { type JsonValue, query } from 'jsonpath-rfc9535';
import { describe, expect, it } from 'vitest';
import { compileJsonPath } from '../../../src/util/json-path-query.ts';

const documents: JsonValue[] = [
  { output: 'hi', a: [1, { b: 'x' }, null], 'with space': 3, "it's": 4, é: 5, '': 6, '0': 7 },
  JSON.parse('{"__proto__": {"x": 1}, "constructor": 2}'),
  { output: null, a: { b: { c: [false, 0, ''] } } },
  [10, [20, 30], { output: 'in an array' }],
  'a string',
  42,
  null,
  {},
  [],
];

const paths = [
  '$',
  '$.output',
  "$['output']",
  '$["output"]',
  '$.a',
  '$.a[0]',
  '$.a[1].b',
  '$.a[-1]',
  '$.a[-3]',
  '$.a[-4]',
  '$.a[3]',
  '$.a.b.c[2]',
  "$['with space']",
  '$["it\'s"]',
  "$['\\u00e9']",
  "$['']",
  "$['0']",
  '$[0]',
  '$[1][0]',
  '$[-1].output',
  '$.__proto__',
  '$.__proto__.x',
  '$.constructor',
  '$.toString',
  '$.length',
  '$.missing.deeper',
  // Not single names and indexes: the library answers.
  '$..output',
  '$.a.*',
  '$.a[0,1]',
  '$.a[0:2]',
  '$[?@ == 20]',
  "$['output','a']",
];

describe('compileJsonPath', () => {
  it('selects what the library selects, for every path and document', () => {
    for (const path of paths) {
      const compiled = compileJsonPath(path);
      for (const document of documents)
        expect([path, compiled(document)]).toEqual([path, query(document, path)]);
    }
  });

  it('hands back the selected value itself, not a copy', () => {
    const inner = { b: 1 };
    expect(compileJsonPath('$.a')({ a: inner })[0]).toBe(inner);
  });

  it('throws on a malformed path, as the library does', () => {
    for (const path of ['output', '$.', '$[', "$['a]", '$..']) {
      expect(() => query({}, path)).toThrow();
      expect(() => compileJsonPath(path)).toThrow();
    }
  });
});
