// Each CLI invocation has its own plugin set (issue 12, item 1): the built CLI's `runCli`, called
// several times in ONE process (as a library embedding the CLI would), loads each file's
// `plugins:` into that invocation's set only. Before, every module went into the process-wide
// registries: a second module defining `grader` was refused ("already registered"), and a file
// that names `grader` without loading it passed because another run had loaded it.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/run-cli.ts';

const FIXTURES = 'test/fixtures/plugin-sets';

/** Runs in a child node process: requires the built CLI bundle and calls runCli three times. */
const SCRIPT = `
const { Writable } = require('node:stream');
const { runCli } = require(${JSON.stringify(join(ROOT, 'dist/cli/cli.cjs'))});
function io() {
  const out = { stdout: '', stderr: '' };
  const sink = (key) => new Writable({ write(chunk, _e, done) { out[key] += chunk.toString(); done(); } });
  return { out, io: { stdout: sink('stdout'), stderr: sink('stderr'), env: { NO_COLOR: '1', PATH: process.env.PATH }, cwd: process.cwd(), debug: false } };
}
async function invoke(args) {
  const { out, io: cliIO } = io();
  const status = await runCli(args, cliIO);
  return { args, status, ...out };
}
(async () => {
  const file = (name) => ${JSON.stringify(FIXTURES)} + '/' + name;
  const run = (name) => ['run', file(name), '--no-store', '--no-progress', '--reporter', 'json'];
  // Two runs at once, each loading its own module that defines 'grader'.
  const both = await Promise.all([invoke(run('lenient.yaml')), invoke(run('strict.yaml'))]);
  // Then a file that names 'grader' without loading any module.
  const plain = await invoke(['validate', file('plain.yaml')]);
  process.stdout.write(JSON.stringify([...both, plain]));
})().catch((error) => { process.stderr.write(String(error && error.stack || error)); process.exit(3); });
`;

const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((t) => rm(t, { recursive: true, force: true })));
});

interface Invocation {
  readonly args: string[];
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

function outcomes(invocation: Invocation): string[] {
  const experiment = JSON.parse(invocation.stdout) as { records: { outcome: string }[] };
  return experiment.records.map((r) => r.outcome);
}

describe('plugin sets through the built CLI, several invocations in one process', () => {
  it('each run sees only the plugins its own file loads; the default set stays as it was', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'he-plugin-sets-cli-'));
    temps.push(dir);
    const script = join(dir, 'invocations.cjs');
    await writeFile(script, SCRIPT);
    const child = spawnSync(process.execPath, [script], {
      cwd: ROOT,
      shell: false,
      encoding: 'utf8',
      timeout: 120_000,
      env: { PATH: process.env['PATH'], HOME: process.env['HOME'], NO_COLOR: '1' },
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const [lenient, strict, plain] = JSON.parse(child.stdout) as Invocation[];
    if (lenient === undefined || strict === undefined || plain === undefined)
      throw new Error('three invocations');
    expect(lenient.stderr).not.toContain('already registered');
    expect(strict.stderr).not.toContain('already registered');
    // The same evaluator name, two meanings, at the same time.
    expect(outcomes(lenient)).toEqual(['pass']);
    expect(outcomes(strict)).toEqual(['fail']);
    // Neither module reached the default set, so a file that loads none does not know the name.
    expect(plain.status).not.toBe(0);
    expect(plain.stdout + plain.stderr).toContain('unknown evaluator "grader"');
  }, 180_000);
});
