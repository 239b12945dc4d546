import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CliIO } from '../../../src/cli/io.ts';
import { runCli } from '../../../src/cli/main.ts';
import { renderJson } from '../../../src/reporters/json.ts';
import { displayWidth } from '../../../src/util/terminal-text.ts';
import { mixedExperiment } from '../reporters/experiment-factory.ts';

class Buffer extends Writable {
  text = '';
  isTTY = false;
  columns?: number;
  override _write(chunk: unknown, _encoding: BufferEncoding, done: () => void): void {
    this.text += String(chunk);
    done();
  }
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-report-cmd-'));
  await writeFile(join(dir, 'e.json'), renderJson(mixedExperiment()));
});

function io(env: NodeJS.ProcessEnv, columns?: number): CliIO & { stdout: Buffer; stderr: Buffer } {
  const stdout = new Buffer();
  if (columns !== undefined) stdout.columns = columns;
  return { stdout, stderr: new Buffer(), env, cwd: dir, debug: false };
}

describe('report command (in process)', () => {
  it('colours the console table only when asked (FORCE_COLOR), never with NO_COLOR', async () => {
    const coloured = io({ FORCE_COLOR: '1' });
    expect(await runCli(['report', 'e.json'], coloured)).toBe(0);
    expect(coloured.stdout.text).toContain('\u001b[31m');
    const plain = io({ FORCE_COLOR: '1', NO_COLOR: '1' });
    expect(await runCli(['report', 'e.json'], plain)).toBe(0);
    expect(plain.stdout.text).not.toContain('\u001b');
  });

  it('fits the table to the terminal width', async () => {
    const narrow = io({}, 50);
    expect(await runCli(['report', 'e.json'], narrow)).toBe(0);
    for (const line of narrow.stdout.text.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(50);
  });

  it('uses the same format for every -o when --format is given', async () => {
    const out = io({});
    expect(
      await runCli(['report', 'e.json', '--format', 'markdown', '-o', 'a.txt', '-o', 'b.txt'], out),
    ).toBe(0);
    expect(out.stdout.text).toBe('wrote markdown report to a.txt\nwrote markdown report to b.txt\n');
  });

  it('checks every format before reading the experiment', async () => {
    const out = io({});
    expect(await runCli(['report', 'missing.json', '-o', 'x.csv', '-o', 'y.pdf'], out)).toBe(2);
    expect(out.stderr.text).toContain('y.pdf');
    expect(out.stderr.text).not.toContain('missing.json');
  });
});
