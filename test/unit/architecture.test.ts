// The dependency rules of DESIGN.md ("imports point down the data flow, never back up"), held by a
// test: every relative import in src/ is checked against the rooms its room may not reach, and
// terminal writes are allowed in cli/ only. docs/architecture.md explains the rules for contributors.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** The gateway and the sandbox know nothing of suites or scoring: the runner and adapters drive them. */
const KNOWS_NO_SUITES = [
  'formats',
  'scoring',
  'evaluators',
  'metrics',
  'runner',
  'store',
  'cli',
  'reporters',
  'compare',
  'timeline',
  'queue',
  'viewer',
];

/** What each room must not import. A room not listed here has no rule (cli, index, api, testing). */
const FORBIDDEN: Record<string, readonly string[]> = {
  // The model knows no file format, execution or terminal.
  core: ['*'],
  util: ['*'],
  // Seed formats -> core; the registries' names and option schemas are read from their catalogs.
  formats: [
    'runner',
    'store',
    'cli',
    'reporters',
    'compare',
    'timeline',
    'scoring',
    'gateway',
    'queue',
    'viewer',
  ],
  // Adapters and instrumentation run harnesses; evaluators judge one trial; metrics aggregate.
  adapters: [
    'evaluators',
    'metrics',
    'runner',
    'store',
    'cli',
    'reporters',
    'compare',
    'timeline',
    'formats',
    'queue',
    'viewer',
  ],
  instrument: [
    'evaluators',
    'metrics',
    'runner',
    'store',
    'cli',
    'reporters',
    'compare',
    'timeline',
    'formats',
    'queue',
    'viewer',
  ],
  evaluators: [
    'adapters',
    'instrument',
    'metrics',
    'runner',
    'store',
    'cli',
    'reporters',
    'compare',
    'timeline',
    'queue',
    'viewer',
  ],
  metrics: [
    'adapters',
    'instrument',
    'evaluators',
    'runner',
    'store',
    'cli',
    'reporters',
    'formats',
    'queue',
    'viewer',
  ],
  stats: ['*'],
  // The runner is a library: it never knows a terminal, a report, a queue or a viewer.
  runner: ['cli', 'reporters', 'compare', 'timeline', 'queue', 'viewer'],
  // The store maps rows to the core model and back.
  store: [
    'runner',
    'cli',
    'reporters',
    'compare',
    'timeline',
    'adapters',
    'evaluators',
    'metrics',
    'scoring',
    'queue',
    'viewer',
  ],
  // Comparison and timelines read finished experiments; reporters render what they are given.
  compare: ['runner', 'store', 'cli', 'reporters', 'adapters', 'evaluators', 'queue', 'viewer'],
  timeline: ['runner', 'store', 'cli', 'reporters', 'adapters', 'evaluators', 'queue', 'viewer'],
  reporters: ['runner', 'store', 'cli', 'adapters', 'evaluators', 'queue', 'viewer'],
  gateway: KNOWS_NO_SUITES,
  sandbox: KNOWS_NO_SUITES,
  // The queue drives the runner and the store; the viewer reads the store and never runs trials.
  queue: ['cli', 'reporters', 'viewer'],
  viewer: ['runner', 'cli', 'queue', 'adapters'],
};

/** Stats are pure numbers; a few rooms share the model and the pure helpers. */
const ALWAYS_ALLOWED: Record<string, readonly string[]> = {
  util: ['core'],
  stats: [],
  core: [],
};

/**
 * Modules of a forbidden room that a room may still use, each with its reason. The viewer's grading
 * screen shows the stored workspace diff, which runs no trial.
 */
const EXCEPTIONS: Record<string, readonly string[]> = {
  viewer: ['runner/workspace-diff.ts'],
};

/** Files whose terminal writes are not ours: the in-sandbox forwarder's source, run inside the sandbox. */
const WRITES_INSIDE_SANDBOX = new Set(['sandbox/loopback-bridge.ts']);

/** Terminal writes: only cli/ (a reporter is handed a stream by the CLI). */
const TERMINAL = /\bconsole\.(log|error|warn|info|debug)\(|\bprocess\.(stdout|stderr)\b/;

const IMPORT =
  /(?:import|export)\s[^;'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)|import\s+['"](\.[^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function roomOf(path: string): string {
  const first = relative(SRC, path).split(sep)[0] ?? '';
  return first.replace(/\.ts$/, '');
}

function importsOf(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/** Comments are not code: a comment may mention console.log. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

function violations(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const room = roomOf(file);
    const text = readFileSync(file, 'utf8');
    const name = relative(SRC, file);
    const forbidden = FORBIDDEN[room];
    if (forbidden !== undefined) {
      for (const spec of importsOf(text)) {
        const targetFile = resolve(dirname(file), spec);
        const target = roomOf(targetFile);
        if (target === room || (EXCEPTIONS[room] ?? []).includes(relative(SRC, targetFile))) continue;
        const all = forbidden.includes('*') && !(ALWAYS_ALLOWED[room] ?? []).includes(target);
        if (all || forbidden.includes(target))
          found.push(`${name} imports ${spec} (${room}/ may not import ${target}/)`);
      }
    }
    if (room !== 'cli' && !WRITES_INSIDE_SANDBOX.has(name) && TERMINAL.test(withoutComments(text)))
      found.push(`${name} writes to the terminal`);
  }
  return found;
}

describe('dependency rules (DESIGN.md)', () => {
  it('no module imports across the rules, and only cli/ writes to the terminal', () => {
    expect(violations()).toEqual([]);
  });

  it('the import scanner sees static, type-only, re-exported and dynamic imports', () => {
    const text = [
      "import { a } from '../runner/run.ts';",
      "import type { B } from '../store/types.ts';",
      "export { c } from './c.ts';",
      "const d = await import('../cli/main.ts');",
      "import '../viewer/side-effect.ts';",
      "import x from 'node:fs';",
    ].join('\n');
    expect(importsOf(text)).toEqual([
      '../runner/run.ts',
      '../store/types.ts',
      './c.ts',
      '../cli/main.ts',
      '../viewer/side-effect.ts',
    ]);
  });

  it('every room of src/ is either ruled or knowingly free', () => {
    const free = new Set(['cli', 'index', 'api', 'testing', 'plugin', 'plugins', 'scoring', 'version']);
    const rooms = new Set(sourceFiles(SRC).map(roomOf));
    const unruled = [...rooms].filter((room) => FORBIDDEN[room] === undefined && !free.has(room));
    expect(unruled).toEqual([]);
  });
});
