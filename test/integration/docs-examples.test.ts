import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/core/diagnostic.ts';
import { validateFile } from '../../src/formats/index.ts';

/** A fenced block whose first line is `# file: PATH`: an example file the docs promise is valid. */
interface DocExample {
  readonly doc: string;
  readonly language: string;
  readonly path: string;
  readonly text: string;
}

const FENCE = /^```(yaml|jsonl|text)\n# file: ([^\n]+)\n([\s\S]*?)^```$/gm;
const VALIDATED = new Set(['yaml', 'jsonl']);

function docExamples(doc: string, markdown: string): DocExample[] {
  return [...markdown.matchAll(FENCE)].map((m) => ({
    doc,
    language: m[1] ?? '',
    path: (m[2] ?? '').trim(),
    text: m[3] ?? '',
  }));
}

async function markdownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.md')).map((e) => join(e.parentPath, e.name));
}

const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((t) => rm(t, { recursive: true, force: true })));
});

describe('docs examples', () => {
  it('finds the marked blocks, and only fences that start with "# file:"', () => {
    const md =
      '```yaml\n# file: a.yaml\nx: 1\n```\n\n```yaml\nnot: marked\n```\n\n```jsonl\n# file: d/b.jsonl\n{}\n```\n';
    expect(docExamples('t.md', md)).toEqual([
      { doc: 't.md', language: 'yaml', path: 'a.yaml', text: 'x: 1\n' },
      { doc: 't.md', language: 'jsonl', path: 'd/b.jsonl', text: '{}\n' },
    ]);
  });

  it('writing-task-specs.md has an example of every file kind', async () => {
    const md = await readFile('docs/writing-task-specs.md', 'utf8');
    const examples = docExamples('docs/writing-task-specs.md', md).filter((e) => VALIDATED.has(e.language));
    const kinds = [];
    const dir = await mkdtemp(join(tmpdir(), 'he-docs-kinds-'));
    temps.push(dir);
    for (const e of docExamples('docs/writing-task-specs.md', md)) {
      await mkdir(dirname(join(dir, e.path)), { recursive: true });
      await writeFile(join(dir, e.path), e.text);
    }
    for (const e of examples) kinds.push((await validateFile(join(dir, e.path))).kind);
    expect(new Set(kinds)).toEqual(
      new Set(['eval-case-v0', 'benchmark', 'task-spec', 'suite', 'rubric', 'harness']),
    );
  });

  it('every marked yaml and jsonl example in docs/ validates with no errors', async () => {
    const docs = await markdownFiles('docs');
    let checked = 0;
    for (const doc of docs) {
      const examples = docExamples(doc, await readFile(doc, 'utf8'));
      if (examples.length === 0) continue;
      const dir = await mkdtemp(join(tmpdir(), 'he-docs-'));
      temps.push(dir);
      for (const e of examples) {
        await mkdir(dirname(join(dir, e.path)), { recursive: true });
        await writeFile(join(dir, e.path), e.text);
      }
      for (const e of examples.filter((x) => VALIDATED.has(x.language))) {
        const report = await validateFile(join(dir, e.path));
        expect(report.diagnostics.map(formatDiagnostic), `${doc}: ${e.path}`).toEqual([]);
        expect(report.count, `${doc}: ${e.path}`).toBeGreaterThan(0);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });

  it('a broken example would be caught: the same check fails on an invalid case', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'he-docs-bad-'));
    temps.push(dir);
    const [example] = docExamples(
      'bad.md',
      '```jsonl\n# file: bad.jsonl\n{"schema_version":"v0","case_id":"X","prompt":"p","tool_name":"t","expected_output_type":"regex","difficulty":"easy","provenance":{"author":"a","source_type":"synthetic"},"version":1}\n```\n',
    );
    if (example === undefined) throw new Error('no example parsed');
    await writeFile(join(dir, example.path), example.text);
    const report = await validateFile(join(dir, example.path));
    expect(report.diagnostics.length).toBeGreaterThan(0);
  });
});
