import { readFileSync } from 'node:fs';
import { defineConfig, type UserConfig } from 'tsdown';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * commander requires `node:child_process` at load for one rarely used feature (executable
 * subcommands), which costs ~5 ms of every CLI start. In the CLI bundle that one `require`
 * becomes a proxy that loads the module on first use. The build fails if commander changes the line.
 */
const lazyCommanderChildProcess = {
  name: 'harnesseval:lazy-commander-child-process',
  transform(code: string, id: string) {
    if (!id.replaceAll('\\', '/').endsWith('node_modules/commander/lib/command.js')) return null;
    const eager = "const childProcess = require('node:child_process');";
    if (!code.includes(eager)) throw new Error(`commander changed: "${eager}" not found in ${id}`);
    const lazy =
      "const childProcess = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });";
    return { code: code.replace(eager, lazy), map: null };
  },
};

const STARTUP = [
  'src/version.ts',
  'src/core/errors.ts',
  'src/core/diagnostic.ts',
  'src/cli/exit.ts',
  'src/cli/io.ts',
  'src/formats/load.ts',
  'src/formats/detect.ts',
  'src/formats/issues.ts',
  'src/formats/eval-case-v0-rules.ts',
  'src/formats/read-file.ts',
  'src/formats/jsonl.ts',
  'src/util/regex-flags.ts',
  'src/util/sha256.ts',
  'src/core/default-scoring.ts',
  // What the command files (flags and help) import: small, and needed on every start.
  'src/store/location.ts',
  'src/cli/store-location.ts',
  'src/core/metric-names.ts',
  'src/cli/commands/init-harness.ts',
  'src/queue/worker-tag.ts',
  'src/store/importers/types.ts',
  'node_modules/jsonpath-rfc9535/dist/esm/parser/', // a folder: every module in it
];
const startupModules = (id: string): boolean => {
  const path = id.replaceAll('\\', '/');
  return STARTUP.some((file) => (file.endsWith('/') ? path.includes(`/${file}`) : path.endsWith(`/${file}`)));
};

const common: UserConfig = {
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  define: { __HARNESSEVAL_VERSION__: JSON.stringify(version) },
  outExtensions: () => ({ js: '.js', dts: '.d.ts' }),
};

export default defineConfig([
  {
    ...common,
    entry: { index: 'src/index.ts', plugin: 'src/plugin.ts', testing: 'src/testing.ts' },
    dts: true,
    clean: true,
  },
  {
    ...common,
    // The CLI bundles its start-up dependencies: resolving and compiling zod's many small
    // modules costs ~70 ms on a slow machine, one bundled chunk ~20 ms (bench/README.md). It is
    // CommonJS: Node 20 loads it ~15 ms faster than the same code as ES modules. The library
    // build (above) stays ESM.
    entry: { cli: 'src/cli/main.ts' },
    format: 'cjs',
    outExtensions: () => ({ js: '.cjs' }),
    outDir: 'dist/cli',
    dts: false,
    clean: true,
    plugins: [lazyCommanderChildProcess],
    // The modules every start or `validate` needs share one chunk: in Node 20 each further
    // module costs ~1-2 ms to resolve, read and compile (bench/README.md: 110 -> 80 ms).
    outputOptions: { codeSplitting: { groups: [{ name: 'startup', test: startupModules }] } },
    deps: {
      alwaysBundle: [
        /^zod(\/|$)/,
        /^yaml(\/|$)/,
        /^commander(\/|$)/,
        /^jsonpath-rfc9535(\/|$)/,
        /^regjsparser(\/|$)/,
      ],
    },
  },
]);
