import { z } from 'zod';
import { HarnessEvalError } from '../core/errors.ts';
import { type BuiltinEntry, definePluginKind, PluginRegistry } from '../plugins/kind.ts';
import {
  hasMethods,
  missingMethods,
  specificationVersionOf,
  unsupportedVersion,
} from '../plugins/version.ts';
import { formatForExtension, resolveOutputFormat } from './output-format.ts';
import type { ReporterDefinition, ReporterV1 } from './types.ts';

/** A reporter registered with `registerReporter(name, entry)`: how to create one and its extensions. */
export interface ReporterEntry {
  /** Returns a fresh reporter (streaming reporters hold per-run state). */
  readonly load: () => Promise<ReporterV1>;
  /** With the dot: `.csv` (matched case-insensitively). */
  readonly extensions: readonly string[];
  readonly description: string;
}

/** Reporters take no options in files. */
const NO_OPTIONS = z.strictObject({});

type BuiltinReporter = BuiltinEntry<ReporterDefinition> & {
  readonly definition: ReporterDefinition;
  readonly extensions: readonly string[];
};

/** A built-in: its definition is given, and its `create` imports the module on first use. */
function builtin(
  name: string,
  extensions: readonly string[],
  description: string,
  create: () => Promise<ReporterV1>,
): BuiltinReporter {
  return {
    options: NO_OPTIONS,
    description,
    extensions,
    definition: { name, description, extensions, create },
  };
}

/** The built-in reporters. */
export const builtinReporters = {
  console: builtin(
    'console',
    ['.txt'],
    'results table, metrics with intervals, violations, verdict',
    async () => (await import('./console.ts')).createConsoleReporter(),
  ),
  json: builtin('json', ['.json'], 'the Experiment as JSON (the portable record)', async () =>
    (await import('./json.ts')).createJsonReporter(),
  ),
  jsonl: builtin('jsonl', ['.jsonl'], 'one run record per line, written as trials finish', async () =>
    (await import('./jsonl.ts')).createJsonlReporter(),
  ),
  csv: builtin('csv', ['.csv'], 'one row per trial (RFC 4180)', async () =>
    (await import('./csv.ts')).createCsvReporter(),
  ),
  markdown: builtin(
    'markdown',
    ['.md', '.markdown'],
    'a summary sized for a pull-request comment',
    async () => (await import('./markdown.ts')).createMarkdownReporter(),
  ),
  junit: builtin('junit', ['.xml'], 'JUnit XML for CI test views', async () =>
    (await import('./junit.ts')).createJunitReporter(),
  ),
  html: builtin(
    'html',
    ['.html', '.htm'],
    'one self-contained page: metric cards, charts, a filterable trial table, traces',
    async () => (await import('./html/index.ts')).createHtmlReporter(),
  ),
} as const satisfies Record<string, BuiltinReporter>;

export type BuiltinReporterName = keyof typeof builtinReporters;

/** The reporter contract versions this HarnessEval runs. */
export const REPORTER_VERSIONS = ['v1'] as const;

/** The seam of the reporter contract: a reporter of any supported version becomes a `ReporterV1`. */
export function resolveReporter(instance: unknown, name: string): ReporterV1 {
  const version = specificationVersionOf(instance);
  switch (version) {
    case 'v1':
      if (hasMethods<ReporterV1>(instance, ['report'])) return instance;
      throw missingMethods('reporter', name, version, ['report']);
    default:
      throw unsupportedVersion('reporter', name, version, REPORTER_VERSIONS);
  }
}

/** A report format never changes silently: a new reporter's name is well formed and its extensions are free. */
function admitReporter(definition: ReporterDefinition, registered: readonly ReporterDefinition[]): void {
  if (!/^[a-z][a-z0-9_-]*$/.test(definition.name)) {
    throw new HarnessEvalError(
      'invalid_config',
      `invalid reporter name "${definition.name}" (expected lower-case letters, digits, _ or -)`,
    );
  }
  for (const extension of definition.extensions) {
    const owner = formatForExtension(`file${extension}`, extensionsOf(registered));
    if (owner !== undefined) {
      throw new HarnessEvalError(
        'invalid_config',
        `extension ${extension} already selects the ${owner} reporter`,
      );
    }
  }
}

/** Each reporter's extensions, lower-case: built-ins, then the registered ones. */
function extensionsOf(registered: readonly ReporterDefinition[]): Record<string, readonly string[]> {
  const all: Record<string, readonly string[]> = {};
  for (const [name, entry] of Object.entries(builtinReporters)) all[name] = entry.extensions;
  for (const plugin of registered) all[plugin.name] = plugin.extensions.map((e) => e.toLowerCase());
  return all;
}

export const reporterKind = definePluginKind<ReporterDefinition, ReporterV1, typeof builtinReporters>({
  kind: 'reporter',
  builtins: builtinReporters,
  versions: REPORTER_VERSIONS,
  resolve: resolveReporter,
  admit: (definition, registry) => admitReporter(definition, registry.plugins()),
});

/** The reporters of one plugin set: built-ins plus the plugins registered in it. */
export class ReporterRegistry extends PluginRegistry<
  ReporterDefinition,
  ReporterV1,
  typeof builtinReporters
> {
  constructor() {
    super(reporterKind);
  }

  /** Each reporter's extensions, lower-case: what `-o FILE` chooses by. */
  extensions(): Record<string, readonly string[]> {
    return extensionsOf(this.plugins());
  }

  /** A fresh reporter of that name; an unknown name fails with a "did you mean". */
  async create(name: string): Promise<ReporterV1> {
    const definition = await this.load(name);
    return this.resolve(await definition.create(), name);
  }

  /** The reporter name a file's extension selects (`out/results.xml` -> `junit`). */
  forFile(path: string): string {
    return resolveOutputFormat({ output: path, formats: this.extensions(), fallback: 'console' });
  }
}

/** The reporters of the default plugin set. */
export const defaultReporterRegistry = new ReporterRegistry();

/** Every reporter name, built-in first, then registered ones in registration order. */
export function reporterNames(registry: ReporterRegistry = defaultReporterRegistry): string[] {
  return registry.names();
}

/** The definition registered for an entry under a name, so that the same entry again is the same definition. */
const definitionsOf = new WeakMap<ReporterEntry, Map<string, ReporterDefinition>>();

/**
 * Adds a user reporter; returns a function that removes it again. Names and extensions must be
 * new: a report format never changes silently. The same entry again is a no-op.
 */
export function registerReporter(
  name: string,
  entry: ReporterEntry,
  registry: ReporterRegistry = defaultReporterRegistry,
): () => void {
  const byName = definitionsOf.get(entry) ?? new Map<string, ReporterDefinition>();
  definitionsOf.set(entry, byName);
  const definition = byName.get(name) ?? {
    name,
    description: entry.description,
    extensions: entry.extensions,
    create: entry.load,
  };
  byName.set(name, definition);
  return registry.register(definition);
}

/** Creates the reporter of that name; an unknown name fails with a "did you mean". */
export function getReporter(
  name: string,
  registry: ReporterRegistry = defaultReporterRegistry,
): Promise<ReporterV1> {
  return registry.create(name);
}

/** The reporter name a file's extension selects (`out/results.xml` -> `junit`). */
export function reporterForFile(path: string, registry: ReporterRegistry = defaultReporterRegistry): string {
  return registry.forFile(path);
}
