import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite, validateFile } from '../../../src/formats/index.ts';

const fixture = new URL('../../fixtures/judge/suite.yaml', import.meta.url).pathname;

describe('suite judge:', () => {
  it('loads the judge config with its defaults', async () => {
    const suite = await loadSuite(fixture);
    expect(suite.judge).toEqual({
      provider: 'openai-compatible',
      model: 'local-judge',
      base_url: 'http://127.0.0.1:8080/v1',
      samples: 3,
      allow_self_judge: false,
    });
  });

  it('locates a bad judge option', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'he-judge-'));
    const file = join(dir, 'suite.yaml');
    const text = await readFile(fixture, 'utf8');
    await writeFile(
      file,
      text.replace('../seeds/', `${join(fixture, '../../seeds')}/`).replace('samples: 3', 'samples: 0'),
    );
    const report = await validateFile(file);
    expect(report.diagnostics.map((d) => `${d.line}:${d.path}`)).toEqual(['8:judge.samples']);
  });

  it('takes the PROVIDER:MODEL[@BASE_URL] string form', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'he-judge-'));
    const file = join(dir, 'suite.yaml');
    const text = (await readFile(fixture, 'utf8')).replace('../seeds/', `${join(fixture, '../../seeds')}/`);
    const head = text.slice(0, text.indexOf('judge:'));
    await writeFile(file, `${head}judge: openai-compatible:qwen2.5:7b@http://127.0.0.1:11434/v1\n`);
    expect((await loadSuite(file)).judge).toEqual({
      provider: 'openai-compatible',
      model: 'qwen2.5:7b',
      base_url: 'http://127.0.0.1:11434/v1',
      samples: 1,
      allow_self_judge: false,
    });
    await writeFile(file, `${head}judge: gpt-4o\n`);
    const report = await validateFile(file);
    expect(report.diagnostics.map((d) => [d.path, d.message])).toEqual([['judge', 'invalid value "gpt-4o"']]);
    expect(report.diagnostics[0]?.expected).toMatch(/matching/);
  });
});
