import { describe, expect, it } from 'vitest';
import type { FieldPath } from '../../../src/core/diagnostic.ts';
import { parseJsonSource } from '../../../src/formats/json-source.ts';
import { parseYamlSource } from '../../../src/formats/yaml-source.ts';

// A leading comment line sends the same text through the YAML parser: its positions are one
// line lower and otherwise what the JSON reader must give.
function throughYaml(text: string) {
  return parseYamlSource('f.json', `# yaml\n${text}`);
}

const SUITE = `{
  "version": "1.0",
  "name": "s",
  "tests": [
    {"id": "a", "input": "x", "expected": null},
    {
      "id": "b\\u0021",   "input": {"nested": [1, -2.5e3, true, false, null, [], {}]},
      "tags": ["é", "\\"q\\""]
    }
  ],
  "thresholds": {"success_rate": {"min": 0.8}},
  "__proto__": {"polluted": true},
  "empty": {},
  "list": []
}
`;

const PATHS: FieldPath[] = [
  [],
  ['version'],
  ['tests'],
  ['tests', 0],
  ['tests', 0, 'expected'],
  ['tests', 1, 'id'],
  ['tests', 1, 'input', 'nested', 1],
  ['tests', 1, 'input', 'nested', 6],
  ['tests', 1, 'input', 'nested', 6, 'missing'],
  ['tests', 1, 'tags', 1],
  ['tests', 2],
  ['tests', 'id'],
  ['tests', 0, 'id', 'deeper'],
  ['thresholds', 'success_rate', 'min'],
  ['__proto__', 'polluted'],
  ['empty', 'x'],
  ['list', 0],
  ['nope'],
];

describe('parseJsonSource', () => {
  it('gives the value and every position the YAML reader gives', () => {
    const json = parseJsonSource(SUITE);
    const yaml = throughYaml(SUITE);
    expect(json).toBeDefined();
    expect(yaml.diagnostics).toEqual([]);
    expect(json?.value).toEqual(yaml.value);
    expect(Object.keys(json?.value as object)).toEqual(Object.keys(yaml.value as object));
    for (const path of PATHS) {
      const y = yaml.locate(path);
      expect({ path, ...json?.locate(path) }).toEqual({ path, line: y.line - 1, col: y.col });
    }
  });

  it('counts lines the same with CRLF line ends', () => {
    const text = SUITE.replaceAll('\n', '\r\n');
    const json = parseJsonSource(text);
    const yaml = throughYaml(text);
    for (const path of PATHS)
      expect(json?.locate(path)).toEqual({ ...yaml.locate(path), line: yaml.locate(path).line - 1 });
  });

  it('leaves a key written twice to the YAML reader, which reports it located', () => {
    const text = '{\n  "a": 1,\n  "\\u0061": 2\n}\n';
    expect(parseJsonSource(text)).toBeUndefined();
    const source = parseYamlSource('f.json', text);
    expect(source.value).toBeUndefined();
    expect(source.diagnostics).toEqual([
      expect.objectContaining({ file: 'f.json', line: 3, expected: 'unique keys' }),
    ]);
  });

  it('leaves YAML, scalars and broken JSON to the YAML reader', () => {
    expect(parseJsonSource('a: 1\n')).toBeUndefined();
    expect(parseJsonSource('"text"')).toBeUndefined();
    expect(parseJsonSource('{a: 1, b: [x, y]}')).toBeUndefined();
    expect(parseJsonSource('{"a": 1,}')).toBeUndefined();
    expect(parseJsonSource('   ')).toBeUndefined();
    expect(parseYamlSource('f.yaml', '{a: 1, b: [x, y]}').value).toEqual({ a: 1, b: ['x', 'y'] });
  });
});
