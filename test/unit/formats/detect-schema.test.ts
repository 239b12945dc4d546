import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { detectDocumentKind, detectFormat, FILE_KINDS, isJsonlDataset } from '../../../src/formats/detect.ts';
import { jsonSchemaFor } from '../../../src/formats/json-schema.ts';

describe('detectFormat', () => {
  it.each([
    ['a.jsonl', '', 'eval-case-v0'],
    ['a.txt', '{"schema_version":"v0","case_id":"abc"}\n', 'eval-case-v0'],
    ['b.yaml', 'version: "1.0"\nname: x\ntests: []\n', 'benchmark'],
    ['b.json', '{"version":"1.0","name":"x","tests":[]}', 'benchmark'],
    ['s.yaml', 'suite_id: x\ntasks: []\n', 'suite'],
    ['t.yaml', 'id: x\ndomain: d\n', 'task-spec'],
    ['t.yaml', 'acceptance_criteria: []\n', 'task-spec'],
    ['r.yaml', 'rubric:\n  a: {}\n', 'rubric'],
    ['h.yaml', 'name: h\nadapter: cli\n', 'harness'],
    ['x.yaml', 'hello: world\n', undefined],
    ['x.yaml', '- a list\n', undefined],
  ])('%s %j -> %s', async (path, text, kind) => {
    expect(await detectFormat(path, text)).toBe(kind);
  });

  it('needs a JSON object with schema_version on the first line for a non-.jsonl JSONL', () => {
    expect(isJsonlDataset('x.json', '{"version":"1.0"}')).toBe(false);
    expect(isJsonlDataset('x.ndjson', 'anything')).toBe(true);
    expect(detectDocumentKind(null)).toBeUndefined();
  });
});

describe('jsonSchemaFor', () => {
  it.each(FILE_KINDS)(
    'matches the committed schemas/%s.schema.json (run `harnesseval schema --out schemas`)',
    async (kind) => {
      const committed = await readFile(
        new URL(`../../../schemas/${kind}.schema.json`, import.meta.url),
        'utf8',
      );
      expect(committed).toBe(`${JSON.stringify(await jsonSchemaFor(kind), null, 2)}\n`);
    },
  );

  it.each(FILE_KINDS)('gives a JSON Schema for %s', async (kind) => {
    const schema = await jsonSchemaFor(kind);
    expect(schema).toMatchObject({ $id: expect.stringContaining(kind), type: 'object' });
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });

  it('states the eval case rules editors can check', async () => {
    const schema = z
      .object({ properties: z.record(z.string(), z.unknown()), required: z.array(z.string()) })
      .parse(await jsonSchemaFor('eval-case-v0'));
    expect(schema.required).toEqual(
      expect.arrayContaining(['schema_version', 'case_id', 'prompt', 'provenance']),
    );
    expect(schema.properties['case_id']).toMatchObject({ pattern: '^[a-z0-9][a-z0-9_-]{2,63}$' });
  });
});
