import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessEvalError } from '../../../src/core/errors.ts';
import {
  builtinReporters,
  getReporter,
  ReporterRegistry,
  registerReporter,
  reporterForFile,
  reporterNames,
} from '../../../src/reporters/registry.ts';
import { closestName } from '../../../src/util/suggest.ts';
import { mixedExperiment } from './experiment-factory.ts';

describe('reporter registry', () => {
  it('picks the reporter from the file extension, case-insensitively', () => {
    expect(reporterForFile('out/results.json')).toBe('json');
    expect(reporterForFile('out/results.jsonl')).toBe('jsonl');
    expect(reporterForFile('out/results.CSV')).toBe('csv');
    expect(reporterForFile('pr-comment.md')).toBe('markdown');
    expect(reporterForFile('junit.xml')).toBe('junit');
    expect(reporterForFile('summary.txt')).toBe('console');
  });

  it('refuses an unknown or missing extension with a usage error listing the known ones', () => {
    for (const path of ['report.pdf', 'report']) {
      try {
        reporterForFile(path);
        expect.unreachable();
      } catch (error) {
        expect(HarnessEvalError.is(error) && error.code).toBe('usage');
        expect(String(error)).toContain('.xml (junit)');
        expect(String(error)).toContain('--format');
      }
    }
  });

  it('creates every built-in reporter, each a v1 reporter under its own name', async () => {
    for (const name of Object.keys(builtinReporters)) {
      const reporter = await getReporter(name);
      expect(reporter.specificationVersion).toBe('v1');
      expect(reporter.name).toBe(name);
      expect(reporter.extensions).toEqual(builtinReporters[name as keyof typeof builtinReporters].extensions);
    }
  });

  it('suggests the closest name for a typo', async () => {
    await expect(getReporter('junt')).rejects.toThrow(/unknown reporter "junt" \(did you mean "junit"\?\)/);
    await expect(getReporter('mark')).rejects.toThrow(/did you mean "markdown"/);
    const error = await getReporter('zzzzzz').catch((e: unknown) => e);
    expect(HarnessEvalError.is(error) && error.code).toBe('invalid_config');
    expect(HarnessEvalError.is(error) && error.message).toBe('unknown reporter "zzzzzz"');
    expect(HarnessEvalError.is(error) && error.data['known']).toEqual(Object.keys(builtinReporters));
  });

  it('gives a fresh instance each time (streaming reporters hold per-run state)', async () => {
    expect(await getReporter('jsonl')).not.toBe(await getReporter('jsonl'));
  });

  it('registers a user reporter that extensions and names then select', async () => {
    registerReporter('tap', {
      description: 'TAP',
      extensions: ['.TAP'],
      load: async () => ({
        specificationVersion: 'v1',
        name: 'tap',
        extensions: ['.tap'],
        report: async (e) => `1..${e.records.length}\n`,
      }),
    });
    expect(reporterNames()).toContain('tap');
    expect(reporterForFile('x.tap')).toBe('tap');
    expect(await (await getReporter('tap')).report(mixedExperiment())).toBe('1..6\n');
  });

  it('refuses a reporter whose specificationVersion this HarnessEval does not run', async () => {
    const registry = new ReporterRegistry();
    registry.register({
      name: 'old',
      extensions: ['.old'],
      create: () =>
        ({ specificationVersion: 'v0', name: 'old', extensions: [], report: async () => '' }) as never,
    });
    await expect(registry.create('old')).rejects.toThrow(
      'reporter "old" has specificationVersion "v0"; this HarnessEval supports "v1"',
    );
    expect(reporterNames()).not.toContain('old');
  });

  it('refuses a duplicate name, a taken extension or an invalid name', () => {
    const load = async () => getReporter('json');
    expect(() => registerReporter('json', { description: '', extensions: ['.j2'], load })).toThrow(
      /a built-in reporter has that name and cannot be replaced/,
    );
    const tsv = { description: '', extensions: ['.tsv'], load };
    const remove = registerReporter('tsv', tsv);
    expect(() => registerReporter('tsv', tsv)).not.toThrow();
    expect(() => registerReporter('tsv', { ...tsv, extensions: ['.tsv2'] })).toThrow(
      /a reporter named "tsv" is already registered/,
    );
    remove();
    expect(reporterNames()).not.toContain('tsv');
    expect(() => registerReporter('json2', { description: '', extensions: ['.json'], load })).toThrow(
      /\.json already selects the json reporter/,
    );
    expect(() => registerReporter('Bad Name', { description: '', extensions: [], load })).toThrow(
      /invalid reporter name/,
    );
  });

  it.each(Object.keys(builtinReporters))(
    '%s writes its text to a destination in new folders',
    async (name) => {
      const dir = await mkdtemp(join(tmpdir(), 'he-registry-'));
      const reporter = await getReporter(name);
      const destination = join(dir, 'one', 'two', `report${reporter.extensions[0]}`);
      const text = await reporter.report(mixedExperiment(), { destination });
      expect(text.length).toBeGreaterThan(0);
      expect(await readFile(destination, 'utf8')).toBe(text);
    },
  );
});

describe('closestName', () => {
  it('finds typos and prefixes, and nothing for unrelated words', () => {
    expect(closestName('jsn', ['json', 'jsonl', 'csv'])).toBe('json');
    expect(closestName('jnuit', ['json', 'junit'])).toBe('junit');
    expect(closestName('CSV', ['json', 'csv'])).toBe('csv');
    expect(closestName('md', ['markdown', 'junit'])).toBe(undefined);
    expect(closestName('mark', ['markdown', 'junit'])).toBe('markdown');
    expect(closestName('html', ['json', 'csv'])).toBe(undefined);
  });
});
