/** A task spec criterion's evaluator may be negated: "banned claims absent" is `contains`, negated. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTaskSpec, validateFile } from '../../../src/formats/load.ts';

const dir = await mkdtemp(join(tmpdir(), 'criterion-negate-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

const spec = (negate: string) => `id: copy
domain: marketing
description: Write the copy.
acceptance_criteria:
  - id: ac-01
    description: No banned claims
    verification: automated
    evaluator:
      name: contains
      options: { substrings: [guaranteed, best in class], mode: any, ignore_case: true }
${negate}`;

describe('criterion evaluators in task specs', () => {
  it('carry negate: true into the task, and default to false', async () => {
    await writeFile(join(dir, 'negated.yaml'), spec('      negate: true\n'));
    await writeFile(join(dir, 'plain.yaml'), spec(''));
    const negated = await loadTaskSpec(join(dir, 'negated.yaml'));
    const plain = await loadTaskSpec(join(dir, 'plain.yaml'));
    expect(negated.criteria[0]?.evaluator).toMatchObject({ name: 'contains', negate: true });
    expect(plain.criteria[0]?.evaluator).toMatchObject({ name: 'contains', negate: false });
  });

  it('refuse a negate that is not a boolean, located at the key', async () => {
    await writeFile(join(dir, 'bad.yaml'), spec('      negate: "yes"\n'));
    const report = await validateFile(join(dir, 'bad.yaml'));
    expect(report.diagnostics.map((d) => [d.line, d.path])).toEqual([
      [11, 'acceptance_criteria[0].evaluator.negate'],
    ]);
  });
});
