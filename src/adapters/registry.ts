import type { z } from 'zod';
import type { Diagnostic } from '../core/diagnostic.ts';
import { errorMessage, fail, HarnessEvalError, ok, type Result } from '../core/errors.ts';
import type { HarnessConfig } from '../core/harness-config.ts';
import { alreadyRegistered, declarePlugin } from '../plugins/known.ts';
import { closestName } from '../util/suggest.ts';
import { adapterOptionSchemas, type BuiltinAdapterName } from './catalog.ts';
import type { AdapterDefinition, AdapterEnvironment, AgentV1 } from './types.ts';

/** A registry entry: the options schema and description are cheap; `load` imports the implementation. */
export interface AdapterEntry<S extends z.ZodType = z.ZodType> {
  readonly options: S;
  readonly description: string;
  readonly load: () => Promise<AdapterDefinition<S>>;
}

type BuiltinAdapters = { readonly [N in BuiltinAdapterName]: AdapterEntry<(typeof adapterOptionSchemas)[N]> };

/** The built-in adapters. Loading one imports only its own dependencies (the MCP SDK for `mcp`). */
export const builtinAdapters = {
  function: {
    options: adapterOptionSchemas.function,
    description: 'An in-process TypeScript or JavaScript function: `module: ./agent.ts#run`.',
    load: async () => (await import('./function.ts')).functionAdapter,
  },
  generic: {
    options: adapterOptionSchemas.generic,
    description: 'The seed-000 name for `function`.',
    load: async () => (await import('./function.ts')).genericAdapter,
  },
  http: {
    options: adapterOptionSchemas.http,
    description: 'A harness behind an HTTP endpoint (JSON body template, JSONPath into the response).',
    load: async () => (await import('./http.ts')).httpAdapter,
  },
  cli: {
    options: adapterOptionSchemas.cli,
    description: 'A harness run as a subprocess, input on stdin or as an argument, never through a shell.',
    load: async () => (await import('./cli.ts')).cliAdapter,
  },
  mcp: {
    options: adapterOptionSchemas.mcp,
    description: 'An MCP server over stdio or streamable HTTP; one connection per run.',
    load: async () => (await import('./mcp.ts')).mcpAdapter,
  },
  oracle: {
    options: adapterOptionSchemas.oracle,
    description: "Harbor's oracle: the task's own solution/solve.sh, run in the sandbox.",
    load: async () => (await import('./oracle.ts')).oracleAdapter,
  },
  'claude-code': {
    options: adapterOptionSchemas['claude-code'],
    description:
      'Claude Code (`claude -p`, stream-json) in the trial workspace; its stream becomes the trace.',
    load: async () => (await import('./claude-code.ts')).claudeCodeAdapter,
  },
  codex: {
    options: adapterOptionSchemas.codex,
    description: 'Codex CLI (`codex exec --json`) in the trial workspace; its events become the trace.',
    load: async () => (await import('./codex.ts')).codexAdapter,
  },
  acp: {
    options: adapterOptionSchemas.acp,
    description: 'Any Agent Client Protocol agent over stdio (Gemini CLI, OpenCode, Goose, ...).',
    load: async () => (await import('./acp.ts')).acpAdapter,
  },
} as const satisfies BuiltinAdapters;

/** A registered user adapter: its entry and the definition it came from. */
interface PluginAdapterEntry extends AdapterEntry {
  readonly definition: unknown;
}

const plugins = new Map<string, PluginAdapterEntry>();

function isBuiltin(name: string): name is BuiltinAdapterName {
  return Object.hasOwn(builtinAdapters, name);
}

/**
 * Adds a user adapter (a plugin). Its name must not shadow a built-in; registering the same name
 * again replaces the earlier definition.
 */
export function registerAdapter<S extends z.ZodType>(definition: AdapterDefinition<S>): () => void {
  if (isBuiltin(definition.name)) {
    throw new HarnessEvalError(
      'invalid_config',
      `adapter "${definition.name}" is built in and cannot be replaced`,
    );
  }
  const existing = plugins.get(definition.name);
  // The same definition again (a plugin module loaded twice) is a no-op; another one is refused.
  if (existing !== undefined && existing.definition !== definition)
    throw alreadyRegistered('adapter', definition.name);
  const entry: PluginAdapterEntry = {
    definition,
    options: definition.options,
    description: definition.description,
    load: async () => definition,
  };
  if (existing === undefined) {
    declarePlugin('adapter', definition.name, definition.options);
    plugins.set(definition.name, entry);
  }
  const registered = existing ?? entry;
  return () => {
    if (plugins.get(definition.name) === registered) unregisterAdapter(definition.name);
  };
}

/** Removes a user adapter; returns whether it was registered. */
export function unregisterAdapter(name: string): boolean {
  const entry = plugins.get(name);
  if (entry !== undefined) declarePlugin('adapter', name, entry.options)();
  return plugins.delete(name);
}

/** Every adapter name, built-ins first. */
export function adapterNames(): string[] {
  return [...Object.keys(builtinAdapters), ...plugins.keys()];
}

export function findAdapter(name: string): AdapterEntry | undefined {
  return isBuiltin(name) ? builtinAdapters[name] : plugins.get(name);
}

export interface AdapterCheckOptions {
  /** The file the harness config came from, for diagnostics. */
  readonly file?: string;
}

function unknownAdapter(name: string, file: string): HarnessEvalError {
  const known = adapterNames();
  const suggestion = closestName(name, known);
  const hint = suggestion === undefined ? '' : `; did you mean "${suggestion}"?`;
  const message = `unknown adapter "${name}"${hint}`;
  return new HarnessEvalError('invalid_config', `${message} (known adapters: ${known.join(', ')})`, {
    diagnostics: [
      { file, line: 0, col: 0, path: 'adapter', message, expected: known.join(' | '), severity: 'error' },
    ],
    data: { adapter: name, known, ...(suggestion === undefined ? {} : { suggestion }) },
  });
}

/**
 * Checks a harness config's adapter name and options against the catalog without loading the
 * adapter: `{ ok, value: parsed options }` or `{ ok: false, error }` with one diagnostic per issue.
 */
export function safeParseAdapterOptions(
  harness: Pick<HarnessConfig, 'adapter' | 'options'>,
  { file = '<harness>' }: AdapterCheckOptions = {},
): Result<unknown> {
  const entry = findAdapter(harness.adapter);
  if (entry === undefined) return fail(unknownAdapter(harness.adapter, file));
  const parsed = entry.options.safeParse(harness.options);
  if (parsed.success) return ok(parsed.data);
  const diagnostics: Diagnostic[] = parsed.error.issues.map((issue) => ({
    file,
    line: 0,
    col: 0,
    path: ['options', ...issue.path.map(String)].join('.'),
    message: issue.message,
    severity: 'error',
  }));
  const lines = diagnostics.map((d) => `${d.path}: ${d.message}`).join('; ');
  return fail(
    new HarnessEvalError('invalid_config', `invalid options for adapter "${harness.adapter}": ${lines}`, {
      diagnostics,
      data: { adapter: harness.adapter },
    }),
  );
}

export interface CreateAgentEnvironment extends AdapterCheckOptions {
  /** Relative paths in the options resolve against this folder (the config file's). */
  readonly baseDir: string;
  /** For `${ENV_VAR}` expansion; `process.env` by default. Never stored. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Creates the agent a harness config names: checks its options, loads the adapter and lets it
 * prepare (import a module, check env references). Throws `HarnessEvalError('invalid_config')`.
 *
 * @example const agent = await createAgent(harness, { baseDir: dirname(file) });
 */
export async function createAgent(
  harness: HarnessConfig,
  environment: CreateAgentEnvironment,
): Promise<AgentV1> {
  const options = safeParseAdapterOptions(harness, environment);
  if (!options.ok) throw options.error;
  const entry = findAdapter(harness.adapter);
  if (entry === undefined) throw unknownAdapter(harness.adapter, environment.file ?? '<harness>');
  const definition = await entry.load();
  const adapterEnvironment: AdapterEnvironment = {
    baseDir: environment.baseDir,
    harness,
    env: environment.env ?? process.env,
  };
  try {
    return await definition.create(options.value, adapterEnvironment);
  } catch (error) {
    if (HarnessEvalError.is(error)) throw error;
    throw new HarnessEvalError(
      'invalid_config',
      `adapter "${harness.adapter}" could not be created: ${errorMessage(error)}`,
      { cause: error },
    );
  }
}
