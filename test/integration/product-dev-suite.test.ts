/**
 * Proves the product-dev starter suite is gradable: every automated acceptance criterion fails
 * on the starter codebase and passes once the reference solution is copied over it, the solved
 * codebases typecheck, and the suite, rubric and task files are complete and consistent.
 * Workspaces are built the way the runner builds them: a temporary copy of the codebase with the
 * repository's node_modules linked in, each criterion's argv spawned there without a shell.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { RubricSchema } from '../../src/core/rubric.ts';
import { CriterionSchema } from '../../src/core/task.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const suiteDir = join(repoRoot, 'suites/product-dev');

const TaskFileSchema = z.object({
  id: z.string(),
  domain: z.literal('product-dev'),
  description: z.string().min(80),
  complexity: z.string(),
  inputs: z.object({ codebase: z.string().startsWith('ref:'), requirements: z.string().startsWith('ref:') }),
  acceptance_criteria: z.array(CriterionSchema),
  rubric: z.literal('ref:../rubric.yaml'),
  tags: z.array(z.string()).min(1),
  estimated_complexity_hours: z.number().positive(),
});
type TaskFile = z.infer<typeof TaskFileSchema>;

const SuiteFileSchema = z.object({
  suite_id: z.literal('product-dev-core-v1'),
  domain: z.literal('product-dev'),
  description: z.string(),
  tasks: z.array(z.object({ ref: z.string(), weight: z.number() })),
  scoring: z.object({ method: z.literal('weighted_average'), pass_threshold: z.literal(0.75) }),
});

const RubricFileSchema = z.object({
  rubric: z.record(z.string(), z.object({ weight: z.number(), levels: z.unknown(), examples: z.unknown() })),
});

const readYaml = async (path: string): Promise<unknown> => parse(await readFile(path, 'utf8'));
const fromRef = (taskFile: string, ref: string) => resolve(dirname(taskFile), ref.replace(/^ref:/, ''));

interface Exit {
  code: number | null;
  output: string;
}

/** Runs argv in cwd without a shell; kills it after the timeout. Keeps the output tail for messages. */
function run(argv: string[], cwd: string, timeoutSeconds = 60): Promise<Exit> {
  const [command = '', ...args] = argv;
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, shell: false, env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutSeconds * 1000);
    child.on('error', (error) => done({ code: null, output: `${output}\n${error.message}` }));
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

/** At most `limit` subprocesses at once: the criteria are cheap but there are ~60 of them. */
function limiter(limit: number) {
  let active = 0;
  const queue: (() => void)[] = [];
  return async <T>(job: () => Promise<T>): Promise<T> => {
    if (active >= limit) await new Promise<void>((go) => queue.push(go));
    active += 1;
    try {
      return await job();
    } finally {
      active -= 1;
      queue.shift()?.();
    }
  };
}

const tmpRoot = await mkdtemp(join(tmpdir(), 'harnesseval-product-dev-'));
const limit = limiter(Math.max(2, availableParallelism()));
const suite = SuiteFileSchema.parse(await readYaml(join(suiteDir, 'suite.yaml')));
const tasks = await Promise.all(
  suite.tasks.map(async ({ ref }) => {
    const file = join(suiteDir, ref);
    return { file, spec: TaskFileSchema.parse(await readYaml(file)) };
  }),
);

async function workspace(spec: TaskFile, file: string, variant: 'starter' | 'solved'): Promise<string> {
  const dir = join(tmpRoot, `${spec.id}-${variant}`);
  await cp(fromRef(file, spec.inputs.codebase), dir, { recursive: true });
  if (variant === 'solved') await cp(join(suiteDir, 'solutions', spec.id), dir, { recursive: true });
  await symlink(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

// Schedule every run up front, in test order, so they overlap while the tests await their own.
const runs = new Map<string, Promise<{ starter: Exit; solved: Exit }>>();
let typecheck: Promise<Exit> = Promise.resolve({ code: null, output: 'not scheduled' });
const existingTests = new Map<string, Promise<Exit>>();
beforeAll(async () => {
  const prepared = await Promise.all(
    tasks.map(async ({ file, spec }) => ({
      spec,
      starterDir: await workspace(spec, file, 'starter'),
      solvedDir: await workspace(spec, file, 'solved'),
    })),
  );
  for (const { spec, starterDir, solvedDir } of prepared) {
    for (const criterion of spec.acceptance_criteria) {
      const { command, timeout_seconds: timeout } = criterion;
      if (criterion.verification !== 'automated' || !command) continue;
      const starter = limit(() => run(command, starterDir, timeout));
      const solved = limit(() => run(command, solvedDir, timeout));
      runs.set(
        `${spec.id}/${criterion.id}`,
        Promise.all([starter, solved]).then(([s, v]) => ({ starter: s, solved: v })),
      );
    }
  }
  for (const { spec, starterDir } of prepared) {
    // The starter's own tests (outside test/acceptance/) describe today's behaviour and must pass.
    const own = (await readdir(join(starterDir, 'test'), { recursive: true })).filter(
      (name) => name.endsWith('.test.ts') && !name.startsWith('acceptance'),
    );
    const ownArgv = ['node', '--import', 'tsx', '--test', ...own.sort().map((name) => `test/${name}`)];
    existingTests.set(
      spec.id,
      own.length === 0 ? Promise.resolve({ code: 0, output: '' }) : limit(() => run(ownArgv, starterDir)),
    );
  }
  typecheck = limit(() => typecheckSolutions());
}, 60_000);

/**
 * One tsc program over every solved workspace with the codebases' strict settings: six separate
 * runs would cost three times the CPU for the same check.
 */
async function typecheckSolutions(): Promise<Exit> {
  const compilerOptions = {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    allowImportingTsExtensions: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    noEmit: true,
  };
  const include = tasks.flatMap(({ spec }) => [`${spec.id}-solved/src`, `${spec.id}-solved/test`]);
  await writeFile(join(tmpRoot, 'tsconfig.json'), JSON.stringify({ compilerOptions, include }));
  await symlink(join(repoRoot, 'node_modules'), join(tmpRoot, 'node_modules'), 'dir');
  const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
  return run([process.execPath, tsc, '-p', tmpRoot], tmpRoot, 120);
}

afterAll(async () => {
  await Promise.allSettled([...runs.values(), typecheck, ...existingTests.values()]);
  await rm(tmpRoot, { recursive: true, force: true });
});

describe('product-dev suite files', () => {
  it('lists the six seed tasks with the seed weights, and every ref exists', () => {
    expect(suite.tasks.map((t) => [t.ref, t.weight])).toEqual([
      ['tasks/auth-implementation.yaml', 1.0],
      ['tasks/crud-api.yaml', 0.8],
      ['tasks/frontend-dashboard.yaml', 1.0],
      ['tasks/bug-fix-regression.yaml', 0.6],
      ['tasks/refactor-extract-service.yaml', 0.8],
      ['tasks/ci-pipeline-setup.yaml', 0.5],
    ]);
    for (const { file, spec } of tasks) {
      expect(file.endsWith(`${spec.id}.yaml`)).toBe(true);
      expect(existsSync(fromRef(file, spec.inputs.codebase))).toBe(true);
      expect(existsSync(fromRef(file, spec.inputs.requirements))).toBe(true);
      expect(existsSync(fromRef(file, spec.rubric))).toBe(true);
      expect(existsSync(join(suiteDir, 'solutions', spec.id))).toBe(true);
    }
  });

  it('has a seed rubric whose dimensions fit the core schema and carry calibration examples', async () => {
    const { rubric } = RubricFileSchema.parse(await readYaml(join(suiteDir, 'rubric.yaml')));
    const dimensions = Object.entries(rubric).map(([name, d]) => ({ name, ...d }));
    const parsed = RubricSchema.parse({ id: 'product-dev', dimensions });
    expect(parsed.dimensions.map((d) => [d.name, d.weight])).toEqual([
      ['code_quality', 0.4],
      ['convention_adherence', 0.3],
      ['test_quality', 0.3],
    ]);
    for (const dimension of parsed.dimensions) {
      expect(dimension.examples.length).toBeGreaterThanOrEqual(2);
      expect(dimension.examples.length).toBeLessThanOrEqual(3);
      for (const example of dimension.examples) expect(example.rationale.length).toBeGreaterThan(20);
    }
  });

  it.each(tasks.map((t) => [t.spec.id, t]))(
    '%s has 3-5 automated criteria with commands and 1-2 rubric criteria',
    async (_id, { spec }) => {
      const automated = spec.acceptance_criteria.filter((c) => c.verification === 'automated');
      const rubric = spec.acceptance_criteria.filter((c) => c.verification === 'rubric');
      expect(automated.length).toBeGreaterThanOrEqual(3);
      expect(automated.length).toBeLessThanOrEqual(5);
      expect(rubric.length).toBeGreaterThanOrEqual(1);
      expect(rubric.length).toBeLessThanOrEqual(2);
      for (const criterion of automated)
        expect(criterion.command?.slice(0, 4)).toEqual(['node', '--import', 'tsx', '--test']);
      const { rubric: dimensions } = RubricFileSchema.parse(await readYaml(join(suiteDir, 'rubric.yaml')));
      for (const criterion of rubric) {
        for (const name of criterion.rubric_dimensions ?? []) expect(Object.keys(dimensions)).toContain(name);
      }
      expect(new Set(spec.acceptance_criteria.map((c) => c.id)).size).toBe(spec.acceptance_criteria.length);
    },
  );
});

describe.each(tasks.map((t) => [t.spec.id, t.spec]))('%s', (id, spec) => {
  const automated = spec.acceptance_criteria.filter((c) => c.verification === 'automated');

  it.each(automated.map((c) => [c.id, c.description]))(
    '%s fails on the starter and passes with the reference solution (%s)',
    async (criterionId) => {
      const result = await runs.get(`${id}/${criterionId}`);
      expect(result, 'criterion was scheduled').toBeDefined();
      expect(result?.starter.code, `starter passed:\n${result?.starter.output}`).not.toBe(0);
      expect(result?.solved.code, `solution failed:\n${result?.solved.output}`).toBe(0);
    },
    180_000,
  );

  it('keeps the starter own tests green', async () => {
    const existing = await existingTests.get(id);
    expect(existing?.code, existing?.output).toBe(0);
  }, 180_000);
});

describe('reference solutions', () => {
  it('typecheck under the codebases strict settings', async () => {
    const result = await typecheck;
    expect(result.code, result.output).toBe(0);
  }, 300_000);
});
