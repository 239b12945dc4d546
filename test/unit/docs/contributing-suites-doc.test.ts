import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/run-cli.ts';
import * as suiteRuns from '../../helpers/suite-runs.ts';

// docs/contributing-suites.md points at real files and helpers: a rename breaks this test, not the doc's readers.
const doc = readFileSync(join(ROOT, 'docs/contributing-suites.md'), 'utf8');

describe('docs/contributing-suites.md', () => {
  it('names only files that exist', () => {
    const paths = [...doc.matchAll(/`((?:suites|test|docs)\/[\w./-]+)`/g)].map((m) => m[1]!);
    expect(paths.length).toBeGreaterThan(8);
    for (const path of paths) {
      const concrete = path.replace('<name>', 'marketing').replace('<task>', 'launch-email');
      if (concrete.includes('my-suite') || concrete.includes('*')) continue;
      expect(existsSync(join(ROOT, concrete)), path).toBe(true);
    }
    for (const [, link] of doc.matchAll(/\]\(([\w-]+\.md)(?:#[\w-]+)?\)/g))
      expect(existsSync(join(ROOT, 'docs', link!)), link).toBe(true);
  });

  it('shows the proof-test helpers that test/helpers/suite-runs.ts exports', () => {
    for (const name of ['runSuite', 'expectEveryAutomated']) {
      expect(doc).toContain(`${name}(`);
      expect(typeof (suiteRuns as Record<string, unknown>)[name]).toBe('function');
    }
  });

  it('links the statistics section that exists', () => {
    const stats = readFileSync(join(ROOT, 'docs/statistics.md'), 'utf8');
    expect(doc).toContain('statistics.md#across-domains-compare-on-tasks-of-several-domains');
    expect(stats).toContain('## Across domains: `compare` on tasks of several domains');
  });
});
