import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import type { FileKind } from '../../../src/formats/detect.ts';
import { lintFile } from '../../../src/formats/lint.ts';
import { loadSuite, validateFile } from '../../../src/formats/load.ts';

const dir = mkdtempSync(`${tmpdir()}/formats-prop-`);
let n = 0;

/** Writes bytes to a fresh file and runs the loaders: success or located diagnostics, never a crash. */
async function neverCrashes(bytes: Uint8Array, ext: string, format?: FileKind): Promise<void> {
  const file = `${dir}/f${n++}${ext}`;
  writeFileSync(file, bytes);
  const options = format === undefined ? {} : { format };
  const report = await validateFile(file, options);
  for (const d of report.diagnostics) {
    expect(d.file).toBe(file);
    expect(d.message.length).toBeGreaterThan(0);
    expect(d.line).toBeGreaterThanOrEqual(0);
  }
  try {
    await loadSuite(file, options);
  } catch (error) {
    expect(HarnessEvalError.is(error)).toBe(true);
    if (HarnessEvalError.is(error) && error.code === 'invalid_input' && error.diagnostics.length > 0)
      expect(error.diagnostics[0]?.line).toBeGreaterThanOrEqual(0);
  }
  try {
    await lintFile(file, options);
  } catch (error) {
    expect(HarnessEvalError.is(error)).toBe(true);
  }
}

const seeds = [
  ['test/fixtures/seeds/hello-world-v0.jsonl', '.jsonl'],
  ['test/fixtures/seeds/customer-support.yaml', '.yaml'],
  ['test/fixtures/seeds/product-dev/rubric.yaml', '.yaml'],
  ['test/fixtures/seeds/product-dev/tasks/auth-implementation.yaml', '.yaml'],
] as const;

/** A seed file with a few bytes replaced, inserted or deleted. */
const mutated = fc
  .record({
    seed: fc.constantFrom(...seeds),
    edits: fc.array(
      fc.record({
        at: fc.nat(),
        op: fc.constantFrom('replace', 'insert', 'delete'),
        byte: fc.integer({ min: 0, max: 255 }),
      }),
      { minLength: 1, maxLength: 6 },
    ),
  })
  .map(({ seed, edits }) => {
    const bytes = [...readFileSync(seed[0])];
    for (const e of edits) {
      const at = bytes.length === 0 ? 0 : e.at % bytes.length;
      if (e.op === 'replace') bytes[at] = e.byte;
      else if (e.op === 'insert') bytes.splice(at, 0, e.byte);
      else bytes.splice(at, 1);
    }
    return { bytes: Uint8Array.from(bytes), ext: seed[1] };
  });

describe('loaders never crash (property)', () => {
  it('on mutated seed files', async () => {
    await fc.assert(
      fc.asyncProperty(mutated, ({ bytes, ext }) => neverCrashes(bytes, ext)),
      { numRuns: 60 },
    );
  });

  it('on random JSON values as JSONL records', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue(), { maxLength: 5 }), (values) =>
        neverCrashes(new TextEncoder().encode(values.map((v) => JSON.stringify(v)).join('\n')), '.jsonl'),
      ),
      { numRuns: 60 },
    );
  });

  it('on random bytes read as every kind', async () => {
    const kinds: FileKind[] = ['eval-case-v0', 'benchmark', 'suite', 'task-spec', 'rubric', 'harness'];
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.constantFrom(...kinds), (bytes, kind) =>
        neverCrashes(bytes, '.txt', kind),
      ),
      { numRuns: 60 },
    );
  });

  it('on random JSON documents read as YAML kinds', async () => {
    const kinds: FileKind[] = ['benchmark', 'suite', 'task-spec', 'rubric', 'harness'];
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.constantFrom(...kinds), (value, kind) =>
        neverCrashes(new TextEncoder().encode(JSON.stringify(value) ?? 'null'), '.yaml', kind),
      ),
      { numRuns: 60 },
    );
  });
});
