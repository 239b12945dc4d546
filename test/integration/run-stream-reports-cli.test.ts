import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/run-cli.ts';

// `run` with a store writes its -o reports from pages of the store; `report ID` renders the same
// stored experiment read whole (the path every report took before). The files must be identical.
let root = '';
let suite = '';
let harness = '';
const SECRET = 'sk-streamed-0123456789';
const FILES = ['r.json', 'r.xml', 'r.csv', 'r.md', 'r.html', 'r.jsonl', 'r.txt'];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'harnesseval-stream-reports-'));
  suite = join(root, 'suite.json');
  const tests = Array.from({ length: 12 }, (_, i) => ({
    id: `t${i}`,
    input: `in ${i}`,
    expected: `in ${i}`,
  }));
  await writeFile(suite, JSON.stringify({ version: '1.0', name: 'streamed', tests }));
  // t3 fails, t5 throws (with the secret in its message), t7 flips between epochs (flaky).
  await writeFile(
    join(root, 'echo.mjs'),
    `let calls = 0;
export async function echo(input) {
  const i = Number(String(input).split(' ')[1]);
  // Trials finish out of the order they start in when several run at once.
  await new Promise((resolve) => setTimeout(resolve, (i * 7) % 5));
  if (i === 5) throw new Error('broke with ' + process.env.API_TOKEN + ' <b>&');
  if (i === 3) return 'wrong "quoted", <tag>';
  if (i === 7) return calls++ % 2 === 0 ? input : 'flip';
  return input;
}\n`,
  );
  harness = join(root, 'harness.yaml');
  await writeFile(
    harness,
    'name: echo\nversion: 1.0.0\nadapter: function\noptions:\n  module: ./echo.mjs#echo\n',
  );
});
afterAll(async () => rm(root, { recursive: true, force: true }));

/** `harnesseval run FILE --harness … --store STORE --no-progress ARGS` in the test's root. */
const runSuite = (file: string, store: string, args: readonly string[], env: Record<string, string> = {}) =>
  cli(['run', file, '--harness', harness, '--store', store, '--no-progress', ...args], root, env);

/** The HTML page's CSP nonce is random per write. */
const sameNonce = (page: string) =>
  page.replace(/nonce-[A-Za-z0-9+/=]+/g, 'nonce-N').replace(/nonce="[^"]+"/g, 'nonce="N"');

describe('run -o from pages of the store', () => {
  it.each([
    ['with a secret in the environment', { API_TOKEN: SECRET }, 1],
    ['without secrets', {} as Record<string, string>, 1],
    ['with trials finishing out of order', { API_TOKEN: SECRET }, 4],
  ])(
    'writes every report byte for byte as the whole-experiment path does, %s',
    async (name, env, concurrency) => {
      const dir = join(root, name.replaceAll(' ', '-'));
      const store = join(dir, 'runs.db');
      const outputs = FILES.flatMap((f) => ['-o', join(dir, 'run', f)]);
      const r = await runSuite(
        suite,
        store,
        ['--epochs', '3', '-j', String(concurrency), '--debug', ...outputs],
        env,
      );
      expect(r.stderr).not.toMatch(/Error:|at .*\.js/);
      // The fold and the json records came from what the run gathered as its trials finished.
      expect(r.stderr).toContain(
        "36 stored trials; the run's spool serves the fold: yes, the json records: yes",
      );
      const id = /stored experiment (exp-\S+)/.exec(r.stderr)?.[1];
      expect(id).toBeDefined();
      const again = await cli(
        ['report', id ?? '', '--store', store, ...FILES.flatMap((f) => ['-o', join(dir, 'whole', f)])],
        root,
        env,
      );
      expect(again.status, again.stderr).toBe(0);
      for (const file of FILES) {
        const streamed = await readFile(join(dir, 'run', file), 'utf8');
        const whole = await readFile(join(dir, 'whole', file), 'utf8');
        expect(streamed).not.toContain(SECRET);
        expect(file.endsWith('.html') ? sameNonce(streamed) : streamed, file).toBe(
          file.endsWith('.html') ? sameNonce(whole) : whole,
        );
      }
      const json = JSON.parse(await readFile(join(dir, 'run', 'r.json'), 'utf8'));
      expect(json.records).toHaveLength(36);
      expect(JSON.stringify(json).includes('[REDACTED:API_TOKEN]')).toBe('API_TOKEN' in env);
      expect(await readFile(join(dir, 'run', 'r.md'), 'utf8')).toContain('Flaky tasks');
      // The console (every row: 36 trials) as `report` prints it.
      const shown = await cli(['report', id ?? '', '--store', store], root, env);
      expect(r.stdout).toBe(shown.stdout);
      expect(r.stdout).not.toContain(SECRET);
    },
    120_000,
  );

  it('leaves no spool beside the json report, and removes one a killed run left', async () => {
    const dir = join(root, 'spools');
    await mkdir(dir, { recursive: true });
    // The spool of a run killed before its end: its process is gone.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    await writeFile(join(dir, `.out.json.${dead}.records.tmp`), '\n    {"half": ');
    const r = await runSuite(suite, join(dir, 'runs.db'), ['-o', join(dir, 'out.json')]);
    expect(r.stderr).toContain(`wrote ${join(dir, 'out.json')}`);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(JSON.parse(await readFile(join(dir, 'out.json'), 'utf8')).records).toHaveLength(12);
  }, 60_000);

  it('keeps the exit status when every trial errors, from counts of the store', async () => {
    const broken = join(root, 'broken.json');
    await writeFile(
      broken,
      JSON.stringify({ version: '1.0', name: 'broken', tests: [{ id: 't5', input: 'in 5' }] }),
    );
    const r = await runSuite(broken, join(root, 'broken.db'), ['-o', join(root, 'b.json')], {
      API_TOKEN: SECRET,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('every trial failed with an error; first: broke with [REDACTED:API_TOKEN]');
    expect(r.stderr).not.toContain(SECRET);
  }, 60_000);
});
