import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockOrders, checkOutput, type DocBlock, docBlocks, withRealIds } from './doc-commands.ts';
import { ROOT } from './run-cli.ts';

/**
 * A test suite for one document: every fenced shell command in it, run in a scratch copy of the
 * repository, and the output each shows checked against what it prints (the format is in
 * ./doc-commands.ts and docs/contributing.md). A doc that drifts fails; to update one, change the
 * shown output in the doc itself.
 */
const COMMAND_TIMEOUT_MS = 120_000;
/** A test waits for its block and those it follows; a whole doc takes well under this even loaded. */
const DOC_TIMEOUT_MS = 300_000;

/** A copy of the working tree (tracked and untracked, not ignored files) with the built dist/. */
async function scratchCopy(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'he-docs-'));
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  // A worktree's node_modules (or .tools) may be a symlink, which `node_modules/` does not ignore.
  const linked = new Set(['node_modules', '.tools']);
  const files = listed.stdout
    .split('\0')
    .filter((f) => f !== '' && !linked.has(f) && existsSync(join(ROOT, f)));
  for (const file of files) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await cp(join(ROOT, file), join(dir, file));
  }
  await cp(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Runs one shell command line of a doc (stdout and stderr as one stream, like a terminal). */
export function sh(command: string, cwd: string): Promise<{ status: number; output: string }> {
  // `npx harnesseval` and, in reference pages, a bare `harnesseval`: the built CLI of the copy.
  const line = command.replace(/(^|[;&|(]\s*)(?:npx )?harnesseval\b/g, '$1node bin/harnesseval.js');
  return new Promise((resolveRun, reject) => {
    const child = spawn('sh', ['-c', `exec 2>&1; ${line}`], {
      cwd,
      env: { PATH: process.env['PATH'], HOME: process.env['HOME'], NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), COMMAND_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolveRun({ status: status ?? -1, output });
    });
  });
}

const EXPERIMENT = /\b(exp-\d{8}-\d{6}-[0-9a-f]{4})\b/g;
/** Commands of one doc running at once: they mostly wait on subprocesses, CI has 2 cores. */
const PARALLEL = 3;

/** What a chain of blocks carries from one to the next: the latest experiment id printed. */
interface Chain {
  latest: string | undefined;
}

/** A counting semaphore: at most `size` holders at a time. */
function limiter(size: number): <T>(task: () => Promise<T>) => Promise<T> {
  let free = size;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (free === 0) await new Promise<void>((resolveWait) => waiting.push(resolveWait));
    else free--;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next === undefined) free++;
      else next();
    }
  };
}

/** Runs one block's setup and commands in order; throws (an assertion) at the first drift. */
async function runBlock(block: DocBlock, cwd: string, ids: Map<string, string>, chain: Chain): Promise<void> {
  const where = `${block.file}:${block.line}`;
  for (const setup of block.setup) {
    const done = await sh(withRealIds(setup, ids, chain.latest), cwd);
    expect(done.status, `${where}: setup \`${setup}\` failed:\n${done.output}`).toBe(0);
    for (const match of done.output.matchAll(EXPERIMENT)) chain.latest = match[1];
  }
  let status = 0;
  for (const [i, command] of block.commands.entries()) {
    const next = block.commands[i + 1];
    if (command.command.trim() === 'echo $?') {
      expect(command.expected?.join('\n').trim(), `${command.file}:${command.line}`).toBe(String(status));
      continue;
    }
    const run = await sh(withRealIds(command.command, ids, chain.latest), cwd);
    status = run.status;
    for (const match of run.output.matchAll(EXPERIMENT)) chain.latest = match[1];
    const context = `${command.file}:${command.line}: \`${command.command}\` printed:\n${run.output}`;
    // A command succeeds unless the doc shows its status with `echo $?` right after it.
    if (next?.command.trim() !== 'echo $?') expect(run.status, context).toBe(0);
    if (command.expected === undefined) continue;
    const check = checkOutput(command.expected, run.output, ids);
    expect(
      check.missing,
      `${context}\nthe doc's line not found (in order): ${check.missing}`,
    ).toBeUndefined();
  }
}

/**
 * Starts every block of a doc: free ones at once, ordered ones one after another in document
 * order, the last writers together after them (./doc-commands.ts, blockOrders). Each promise
 * settles to the block's failure, or undefined, so none is an unhandled rejection.
 */
function startBlocks(blocks: readonly DocBlock[], cwd: string): Promise<unknown>[] {
  const ids = new Map<string, string>();
  const chain: Chain = { latest: undefined };
  const slot = limiter(PARALLEL);
  const orders = blockOrders(blocks);
  let ordered: Promise<unknown> = Promise.resolve();
  const last: DocBlock[] = [];
  const started = new Map<DocBlock, Promise<unknown>>();
  const settle = (p: Promise<void>) =>
    p.then(
      () => undefined,
      (error: unknown) => error ?? 'failed',
    );
  blocks.forEach((block, i) => {
    if (block.skip !== undefined) return;
    if (orders[i] === 'free') started.set(block, settle(slot(() => runBlock(block, cwd, ids, { ...chain }))));
    else if (orders[i] === 'ordered') {
      const run = ordered.then(() => settle(slot(() => runBlock(block, cwd, ids, chain))));
      started.set(block, run);
      ordered = run;
    } else last.push(block);
  });
  for (const block of last)
    started.set(
      block,
      ordered.then(() => settle(slot(() => runBlock(block, cwd, ids, { ...chain })))),
    );
  return blocks.map((block) => started.get(block) ?? Promise.resolve(undefined));
}

/** A check of the scratch copy once every block of the doc has run (e.g. the linter still passes). */
export interface AfterBlocks {
  readonly name: string;
  readonly check: (cwd: string) => Promise<void>;
}

export function docCommandsSuite(doc: string, after?: AfterBlocks): void {
  describe(`the commands in ${doc}`, () => {
    const blocks: DocBlock[] = docBlocks(doc, readFileSync(join(ROOT, doc), 'utf8'));
    let cwd = '';
    let outcomes: Promise<unknown>[] = [];

    const runnable = blocks.filter((b) => b.skip === undefined);

    beforeAll(async () => {
      if (runnable.length === 0) return;
      cwd = await scratchCopy();
      outcomes = startBlocks(blocks, cwd);
    }, COMMAND_TIMEOUT_MS); // the copy of the tree takes long on a loaded machine
    afterAll(async () => {
      await Promise.all(outcomes);
      if (cwd !== '') await rm(cwd, { recursive: true, force: true });
    }, DOC_TIMEOUT_MS);

    it('has shell blocks, each with commands', () => {
      expect(blocks.length).toBeGreaterThan(0);
      for (const block of blocks) expect(block.commands.length, `${doc}:${block.line}`).toBeGreaterThan(0);
    });

    blocks.forEach((block, i) => {
      const where = `${doc}:${block.line}`;
      if (block.skip !== undefined) {
        // Said, not silent: the reason is in the skipped test's name.
        it.skip(`${where} (not run: ${block.skip})`, () => {});
        return;
      }
      // The blocks already run (started in beforeAll); a test waits for its own and reports it.
      it(`${where}: ${block.commands.map((c) => c.command).join(' && ')}`, {
        timeout: DOC_TIMEOUT_MS,
      }, async () => {
        const failure = await outcomes[i];
        if (failure !== undefined) throw failure;
      });
    });

    if (after !== undefined)
      it(`after every block of ${doc}: ${after.name}`, { timeout: DOC_TIMEOUT_MS }, async () => {
        await Promise.all(outcomes);
        await after.check(cwd);
      });
  });
}

/** Every relative link of the README and docs/*.md names a file that exists. */
export function docLinksSuite(): void {
  describe('links in the docs', () => {
    const files = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    it.each(files)('every relative link in %s names a file that exists', (file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const dead = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => (m[1] ?? '').split('#')[0] ?? '')
        .filter((target) => target !== '' && !/^[a-z]+:/.test(target))
        .filter((target) => !existsSync(resolve(ROOT, dirname(file), target)));
      expect(dead).toEqual([]);
    });
  });
}
