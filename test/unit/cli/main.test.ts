import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../../src/cli/io.ts';
import { buildProgram, namedCommand, runCli } from '../../../src/cli/main.ts';

class Sink extends Writable {
  text = '';
  override _write(chunk: unknown, _encoding: BufferEncoding, done: () => void): void {
    this.text += String(chunk);
    done();
  }
}

function io(): CliIO & { stdout: Sink; stderr: Sink } {
  return { stdout: new Sink(), stderr: new Sink(), env: {}, cwd: process.cwd(), debug: false };
}

const ALL = [
  'run',
  'validate',
  'load',
  'lint',
  'report',
  'runs',
  'compare',
  'timeline',
  'power',
  'grade',
  'annotations',
  'worker',
  'ingest-otel',
  'ingest-atif',
  'schema',
  'init',
  'view',
];

describe('namedCommand (start-up registers only the command being run)', () => {
  it('finds the first word that names a command, past options and --plugin values', () => {
    expect(namedCommand(['validate', 'x.jsonl'])).toBe('validate');
    expect(namedCommand(['--debug', 'runs', 'list'])).toBe('runs');
    expect(namedCommand(['--plugin', 'run', 'lint', 'f.yaml'])).toBe('lint');
    expect(namedCommand(['--plugin=p.ts', 'schema'])).toBe('schema');
  });

  it('names none for help, version, nothing or a misspelling', () => {
    expect(namedCommand([])).toBeUndefined();
    expect(namedCommand(['--help'])).toBeUndefined();
    expect(namedCommand(['-V'])).toBeUndefined();
    expect(namedCommand(['valdate', 'x'])).toBeUndefined();
    expect(namedCommand(['help', 'run'])).toBeUndefined();
  });

  it('builds every command without a name, and only the named one with it', () => {
    expect(buildProgram(io()).commands.map((c) => c.name())).toEqual(ALL);
    expect(buildProgram(io(), 'validate').commands.map((c) => c.name())).toEqual(['validate']);
  });

  it('still lists every command in --help and suggests the right one for a misspelling', async () => {
    const help = io();
    expect(await runCli(['--help'], help)).toBe(0);
    for (const name of ALL) expect(help.stdout.text).toContain(name);
    const typo = io();
    expect(await runCli(['valdate', 'x.jsonl'], typo)).toBe(2);
    expect(typo.stderr.text).toContain('validate');
  });
});
