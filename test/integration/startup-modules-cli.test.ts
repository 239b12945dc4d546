import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/run-cli.ts';

// bench/README.md (validate): a cold `validate` costs ~35-40 ms of HarnessEval's own because no
// zod, no suite schema and no JSONPath or regex parser is evaluated on the way. One value import
// of a zod module from a start-up file (`defaultScoring` from core/suite.ts in formats/load.ts)
// once doubled that without any test noticing. This one lists what the built CLI really loads.

const dir = mkdtempSync(join(tmpdir(), 'harnesseval-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The source files bundled into every dist/cli chunk the command loaded (from the chunks' maps). */
function loadedSources(args: readonly string[]): {
  status: number | null;
  chunks: string[];
  sources: string[];
} {
  const list = join(dir, `loaded-${args[0]}.json`);
  const preload = join(dir, 'record-loaded.cjs');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify(Object.keys(require.cache))));\n`,
  );
  const result = spawnSync(process.execPath, ['-r', preload, BIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'], NO_COLOR: '1' },
  });
  const chunks = (JSON.parse(readFileSync(list, 'utf8')) as string[]).filter((f) =>
    f.replaceAll('\\', '/').includes('/dist/cli/'),
  );
  // The bundler's own runtime chunk has no map (and no sources of ours).
  const sources = chunks.flatMap((chunk) =>
    existsSync(`${chunk}.map`)
      ? (JSON.parse(readFileSync(`${chunk}.map`, 'utf8')) as { sources: string[] }).sources
      : [],
  );
  return { status: result.status, chunks: chunks.map((c) => basename(c)), sources };
}

describe('what a cold start of the built CLI loads', () => {
  it('validate of a v0 dataset evaluates no zod, no suite schema and no YAML parser', () => {
    const { status, chunks, sources } = loadedSources([
      'validate',
      'examples/hello-world/datasets/hello-world-v0.jsonl',
    ]);
    expect(status).toBe(0);
    // One file per ESM module costs ~1-2 ms: the command's code, the start-up chunk, the runtime.
    expect(chunks.filter((c) => !/^(cli|startup-.*|rolldown-runtime-.*)\.cjs$/.test(c))).toEqual([]);
    // The dataset rules themselves are there: the list is real.
    expect(sources.some((s) => s.endsWith('src/formats/eval-case-v0-rules.ts'))).toBe(true);
    expect(sources.filter((s) => s.includes('node_modules/zod/'))).toEqual([]);
    expect(sources.filter((s) => /src\/core\/(suite|task|harness-config)\.ts$/.test(s))).toEqual([]);
    expect(sources.filter((s) => s.includes('node_modules/yaml/'))).toEqual([]);
  });

  it('--version loads no format rules at all', () => {
    const { status, sources } = loadedSources(['--version']);
    expect(status).toBe(0);
    expect(sources.filter((s) => s.includes('node_modules/zod/'))).toEqual([]);
  });
});
