import { defineConfig, type UserConfig } from 'tsdown';

const common: UserConfig = {
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  outExtensions: () => ({ js: '.js', dts: '.d.ts' }),
};

export default defineConfig([
  {
    ...common,
    entry: { index: 'src/index.ts', testing: 'src/testing.ts' },
    dts: true,
    clean: true,
  },
  {
    ...common,
    // The CLI bundles its start-up dependencies: resolving and compiling zod's many small
    // modules costs ~70 ms on a slow machine, one bundled chunk ~20 ms (bench/README.md).
    entry: { cli: 'src/cli/main.ts' },
    outDir: 'dist/cli',
    dts: false,
    clean: true,
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
