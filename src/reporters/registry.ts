import { HarnessEvalError } from '../core/errors.ts';
import { alreadyRegistered } from '../plugins/known.ts';
import { closestName } from '../util/suggest.ts';
import { formatForExtension, resolveOutputFormat } from './output-format.ts';
import type { ReporterV1 } from './types.ts';

/** A registered reporter: how to create one (lazily: its module loads only when used) and its file extensions. */
export interface ReporterEntry {
  /** Returns a fresh reporter (streaming reporters hold per-run state). */
  readonly load: () => Promise<ReporterV1>;
  /** Lower-case, with the dot: `.csv`. */
  readonly extensions: readonly string[];
  readonly description: string;
}

/** The built-in reporters. */
export const builtinReporters = {
  console: {
    load: async () => (await import('./console.ts')).createConsoleReporter(),
    extensions: ['.txt'],
    description: 'results table, metrics with intervals, violations, verdict',
  },
  json: {
    load: async () => (await import('./json.ts')).createJsonReporter(),
    extensions: ['.json'],
    description: 'the Experiment as JSON (the portable record)',
  },
  jsonl: {
    load: async () => (await import('./jsonl.ts')).createJsonlReporter(),
    extensions: ['.jsonl'],
    description: 'one run record per line, written as trials finish',
  },
  csv: {
    load: async () => (await import('./csv.ts')).createCsvReporter(),
    extensions: ['.csv'],
    description: 'one row per trial (RFC 4180)',
  },
  markdown: {
    load: async () => (await import('./markdown.ts')).createMarkdownReporter(),
    extensions: ['.md', '.markdown'],
    description: 'a summary sized for a pull-request comment',
  },
  junit: {
    load: async () => (await import('./junit.ts')).createJunitReporter(),
    extensions: ['.xml'],
    description: 'JUnit XML for CI test views',
  },
  html: {
    load: async () => (await import('./html/index.ts')).createHtmlReporter(),
    extensions: ['.html', '.htm'],
    description: 'one self-contained page: metric cards, charts, a filterable trial table, traces',
  },
} as const satisfies Record<string, ReporterEntry>;

export type BuiltinReporterName = keyof typeof builtinReporters;

const registry = new Map<string, ReporterEntry>(Object.entries(builtinReporters));
/** User reporters, by the entry they were registered with (the registry holds a normalised copy). */
const registered = new Map<string, ReporterEntry>();

/** Every reporter name, built-in first, then registered ones in registration order. */
export function reporterNames(): string[] {
  return [...registry.keys()];
}

/**
 * Adds a user reporter; returns a function that removes it again. Names and extensions must be
 * new: a report format never changes silently. The same entry again is a no-op.
 */
export function registerReporter(name: string, entry: ReporterEntry): () => void {
  if (!/^[a-z][a-z0-9_-]*$/.test(name)) {
    throw new HarnessEvalError(
      'invalid_config',
      `invalid reporter name "${name}" (expected lower-case letters, digits, _ or -)`,
    );
  }
  const unregister = () => {
    if (registered.get(name) === entry) {
      registry.delete(name);
      registered.delete(name);
    }
  };
  if (registered.get(name) === entry) return unregister;
  if (registry.has(name)) throw alreadyRegistered('reporter', name);
  for (const extension of entry.extensions) {
    const owner = reporterNameForExtension(extension);
    if (owner !== undefined) {
      throw new HarnessEvalError(
        'invalid_config',
        `extension ${extension} already selects the ${owner} reporter`,
      );
    }
  }
  registry.set(name, { ...entry, extensions: entry.extensions.map((e) => e.toLowerCase()) });
  registered.set(name, entry);
  return unregister;
}

/** Creates the reporter of that name; an unknown name fails with the known ones and a "did you mean". */
export async function getReporter(name: string): Promise<ReporterV1> {
  const entry = registry.get(name);
  if (entry === undefined) {
    const known = reporterNames();
    const hint = closestName(name, known);
    throw new HarnessEvalError(
      'usage',
      `unknown reporter "${name}"${hint === undefined ? '' : ` (did you mean "${hint}"?)`}; known reporters: ${known.join(', ')}`,
      { data: { name, known } },
    );
  }
  return entry.load();
}

function reporterExtensions(): Record<string, readonly string[]> {
  return Object.fromEntries([...registry].map(([name, entry]) => [name, entry.extensions]));
}

function reporterNameForExtension(extension: string): string | undefined {
  return formatForExtension(`file${extension}`, reporterExtensions());
}

/** The reporter name a file's extension selects (`out/results.xml` -> `junit`). */
export function reporterForFile(path: string): string {
  return resolveOutputFormat({ output: path, formats: reporterExtensions(), fallback: 'console' });
}
