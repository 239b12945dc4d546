import { cp, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, ROOT, startCli } from '../helpers/run-cli.ts';
import { STACK_TRACE, scratch, seeded } from './helpers.ts';

// A seeded fuzzer over every input kind the CLI reads: benchmarks, suites, task specs, rubrics,
// harness configs, v0 JSONL datasets, exported experiments and OTLP traces. Each mutated file
// goes through the commands that read it. The bar: 0 stack traces, 0 "internal error", 0 hangs,
// and every rejection names the file (located `file:line:col:` wherever a line exists).

const SEED = 20261201;
const PER_SEED = 9;
// A hang is a command that never ends; on a loaded 2-core machine (load 20) a batched validate of
// nine benchmarks took 9 s alone and over 20 s beside three others, so the limit leaves room.
const LIMIT_MS = 45_000;
let dir = '';
let remove = async () => {};
beforeAll(async () => {
  ({ dir, remove } = await scratch('fuzz'));
  // Mutants sit beside copies of the originals, so that their refs (tasks, codebases) resolve.
  await cp(join(ROOT, 'suites/product-dev'), join(dir, 'product-dev'), {
    recursive: true,
    verbatimSymlinks: true,
  });
});
afterAll(() => remove());

type Kind = 'benchmark' | 'suite' | 'task' | 'rubric' | 'harness' | 'jsonl' | 'experiment' | 'otlp';

const SEEDS: Record<Kind, { readonly file: string; readonly into: string }> = {
  benchmark: { file: 'examples/hello-world/benchmark.yaml', into: '.' },
  suite: { file: 'suites/product-dev/suite.yaml', into: 'product-dev' },
  task: { file: 'suites/product-dev/tasks/bug-fix-regression.yaml', into: 'product-dev/tasks' },
  rubric: { file: 'suites/product-dev/rubric.yaml', into: 'product-dev' },
  harness: { file: 'examples/harness-lineage/v0.5.0.yaml', into: '.' },
  jsonl: { file: 'examples/hello-world/datasets/hello-world-v0.jsonl', into: '.' },
  experiment: { file: 'test/fixtures/adversarial/experiment.json', into: '.' },
  otlp: { file: 'test/fixtures/otel/agent-run.json', into: '.' },
};

const HOSTILE_VALUES = [
  '[]',
  '{}',
  '.nan',
  '1e400',
  '-1e308',
  '!!js/function "function () {}"',
  '*nowhere',
  `"${'x'.repeat(100_000)}"`,
  '~',
  `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  '"\\ud800"',
  '{__proto__: {polluted: true}}',
];

/** One seeded mutation of `text` (bytes, since some mutations break UTF-8). */
function mutate(text: string, random: () => number, json: boolean): Buffer {
  const lines = text.split('\n');
  const at = (n: number) => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[at(items.length)] as T;
  switch (at(14)) {
    case 0:
      return Buffer.from(text.slice(0, at(text.length)));
    case 1:
      lines.splice(at(lines.length), 1);
      return Buffer.from(lines.join('\n'));
    case 2: {
      const i = at(lines.length);
      lines.splice(i, 0, lines[i] ?? '');
      return Buffer.from(lines.join('\n'));
    }
    case 3: {
      const bytes = Buffer.from(text);
      bytes[at(bytes.length)] = at(256);
      return bytes;
    }
    case 4: {
      // A value replaced by a hostile one (YAML `key: value`, JSON `"key": value`).
      const i = lines.findIndex((line, n) => n >= at(lines.length) && /:\s*\S/.test(line));
      const line = lines[i === -1 ? 0 : i] ?? '';
      lines[i === -1 ? 0 : i] = line.replace(
        /:\s*\S.*$/,
        `: ${pick(HOSTILE_VALUES)}${json && line.trimEnd().endsWith(',') ? ',' : ''}`,
      );
      return Buffer.from(lines.join('\n'));
    }
    case 5:
      return Buffer.concat([
        Buffer.from(text.slice(0, 40)),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
        Buffer.from(text.slice(40)),
      ]);
    case 6:
      return Buffer.from(`${text.slice(0, 30)}\u0000${text.slice(30)}`);
    case 7:
      return Buffer.from(`\ufeff${text.replaceAll('\n', '\r\n')}`);
    case 8:
      return Buffer.from(
        json
          ? `${'['.repeat(200_000)}${']'.repeat(200_000)}`
          : `a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n`,
      );
    case 9:
      return Buffer.from(
        pick(['', '   \n\t\n', '# only a comment\n', '42\n', '"just a string"\n', 'null\n']),
      );
    case 10: {
      const noise = Buffer.alloc(4096);
      for (let i = 0; i < noise.length; i++) noise[i] = at(256);
      return noise;
    }
    case 11:
      return Buffer.from(json ? `${text}\n${text}` : `${text}\n---\n${text}`);
    case 12: {
      // A key repeated, or a key nobody knows.
      const i = at(lines.length);
      lines.splice(i, 0, lines[i] ?? 'x: 1', `${(lines[i] ?? '').match(/^\s*/)?.[0] ?? ''}zz_unknown_key: 1`);
      return Buffer.from(lines.join('\n'));
    }
    default: {
      const i = at(lines.length);
      lines[i] = `${'  '.repeat(at(6))}${(lines[i] ?? '').trim()}`; // indentation broken
      return Buffer.from(lines.join('\n'));
    }
  }
}

/**
 * The commands that read a kind of file, one file at a time (`validate` and `lint` take every
 * mutant of a kind in one call). The `run` ones stop at "no task matches" when the file is valid.
 */
function commandsFor(kind: Kind, file: string): string[][] {
  const harness = join(ROOT, 'examples/hello-world/harness.yaml');
  switch (kind) {
    case 'benchmark':
    case 'suite':
    case 'task':
      return [['run', file, '--harness', harness, '--no-store', '--no-progress', '--filter-id', '__none__']];
    case 'jsonl':
      return [['load', file, '--validate', '--summary']];
    case 'rubric':
    case 'harness':
      return [];
    case 'experiment':
      return [
        ['report', file, '--format', 'markdown'],
        ['runs', 'import', file, '--store', join(dir, 'imports.db'), '--replace'],
      ];
    case 'otlp':
      return [['ingest-otel', file]];
  }
}

const BATCHED: Partial<Record<Kind, readonly string[]>> = {
  benchmark: ['validate', 'lint'],
  suite: ['validate', 'lint'],
  task: ['validate', 'lint'],
  jsonl: ['validate', 'lint'],
  rubric: ['validate'],
  harness: ['validate'],
};

async function bounded(args: string[]): Promise<CliResult & { hung: boolean }> {
  const run = startCli(args, dir);
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    run.child.kill('SIGKILL');
  }, LIMIT_MS);
  const result = await run.done;
  clearTimeout(timer);
  return { ...result, hung };
}

/** Runs `jobs` at most `width` at a time. */
async function pool<T>(jobs: (() => Promise<T>)[], width: number): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await (jobs[i] as () => Promise<T>)();
      }
    }),
  );
  return out;
}

describe('fuzzing every input kind', () => {
  it(`${PER_SEED} seeded mutants per kind: no stack trace, no internal error, no hang, every rejection names its file`, async () => {
    const random = seeded(SEED);
    const calls: { files: string[]; args: string[] }[] = [];
    for (const [kind, seed] of Object.entries(SEEDS) as [Kind, (typeof SEEDS)[Kind]][]) {
      const original = await readFile(join(ROOT, seed.file), 'utf8');
      const json = seed.file.endsWith('.json') || seed.file.endsWith('.jsonl');
      const files: string[] = [];
      for (let i = 0; i < PER_SEED; i++) {
        const name = `${kind}-mutant-${i}${seed.file.slice(seed.file.lastIndexOf('.'))}`;
        const file = join(dir, seed.into, name);
        await writeFile(file, mutate(original, random, json));
        files.push(file);
        for (const args of commandsFor(kind, file)) calls.push({ files: [file], args });
      }
      for (const command of BATCHED[kind] ?? []) calls.push({ files, args: [command, ...files] });
    }
    const results = await pool(
      calls.map((call) => async () => ({ ...call, result: await bounded(call.args) })),
      4,
    );
    const problems: string[] = [];
    for (const { files, args, result } of results) {
      const shown = `${args[0]} ${files.map((f) => basename(f)).join(' ')}`;
      const output = `${result.stdout}${result.stderr}`;
      if (result.hung) problems.push(`${shown}: hung (killed after ${LIMIT_MS / 1000} s)`);
      if (STACK_TRACE.test(result.stderr)) problems.push(`${shown}: stack trace\n${result.stderr}`);
      if (/internal error/.test(output)) problems.push(`${shown}: internal error\n${result.stderr}`);
      // A valid suite stops at the filter that matches nothing: that is acceptance.
      const accepted = result.status === 0 || /no task matches the filters/.test(result.stderr);
      // `lint` names only the files it has findings for; `validate` names every file it read.
      const named = args[0] === 'lint' ? [] : files;
      for (const file of named)
        if (!accepted && !result.hung && !output.includes(basename(file)))
          problems.push(
            `${shown}: rejected (exit ${result.status}) without naming ${basename(file)}\n${result.stderr}`,
          );
    }
    expect(problems).toEqual([]);
    // The fuzzer is not idle: most mutants are rejected, some (comments, no-op edits) still valid.
    const rejected = results.filter(
      (r) => r.result.status !== 0 && !/no task matches the filters/.test(r.result.stderr),
    ).length;
    expect(rejected).toBeGreaterThan(results.length / 3);
  }, 420_000);
});
