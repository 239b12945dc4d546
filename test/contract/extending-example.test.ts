import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// The example of docs/extending.md ("Testing your adapter"): importing it registers its tests here.
import '../../examples/plugins/echo-adapter.contract.test.ts';

const EXAMPLE = 'examples/plugins/echo-adapter.contract.test.ts';

describe('docs/extending.md: Testing your adapter', () => {
  it('shows the example file exactly as it is', () => {
    const doc = readFileSync('docs/extending.md', 'utf8');
    const file = readFileSync(EXAMPLE, 'utf8');
    const block = /```ts\n(\/\/ examples\/plugins\/echo-adapter\.contract\.test\.ts[\s\S]*?)```/.exec(
      doc,
    )?.[1];
    expect(block, `docs/extending.md quotes ${EXAMPLE}`).toBe(file);
  });
});
