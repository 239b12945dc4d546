import { z } from 'zod';
import type { Diagnostic } from '../core/diagnostic.ts';
import { errorMessage, fail, HarnessEvalError, type Result } from '../core/errors.ts';
import type { HarnessConfig } from '../core/harness-config.ts';
import { definePluginKind, PluginRegistry } from '../plugins/kind.ts';
import {
  hasMethods,
  missingMethods,
  specificationVersionOf,
  unsupportedVersion,
} from '../plugins/version.ts';
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

/** The adapter contract versions this HarnessEval runs. */
export const ADAPTER_VERSIONS = ['v1'] as const;

/** The seam of the adapter contract: an agent of any supported version becomes an `AgentV1`. */
export function resolveAgent(instance: unknown, name: string): AgentV1 {
  const version = specificationVersionOf(instance);
  switch (version) {
    case 'v1':
      if (hasMethods<AgentV1>(instance, ['run'])) return instance;
      throw missingMethods('adapter', name, version, ['run']);
    default:
      throw unsupportedVersion('adapter', name, version, ADAPTER_VERSIONS);
  }
}

export const adapterKind = definePluginKind<AdapterDefinition, AgentV1, typeof builtinAdapters>({
  kind: 'adapter',
  builtins: builtinAdapters,
  versions: ADAPTER_VERSIONS,
  resolve: resolveAgent,
});

export interface AdapterCheckOptions {
  /** The file the harness config came from, for diagnostics. */
  readonly file?: string;
}

/** The adapters of one plugin set: built-ins plus the plugins registered in it. */
export class AdapterRegistry extends PluginRegistry<AdapterDefinition, AgentV1, typeof builtinAdapters> {
  constructor() {
    super(adapterKind);
  }

  /**
   * Checks a harness config's adapter name and options without loading the adapter:
   * `{ ok, value: parsed options }` or `{ ok: false, error }` with one diagnostic per issue.
   */
  checkHarness(
    harness: Pick<HarnessConfig, 'adapter' | 'options'>,
    { file = '<harness>' }: AdapterCheckOptions = {},
  ): Result<unknown> {
    const checked = this.safeCheck(harness.adapter, harness.options);
    if (checked.ok) return checked;
    const { error } = checked;
    const issues = error.cause instanceof z.ZodError ? error.cause.issues : undefined;
    const diagnostics: Diagnostic[] =
      issues === undefined
        ? [
            {
              file,
              line: 0,
              col: 0,
              path: 'adapter',
              message: error.message,
              expected: this.names().join(' | '),
              severity: 'error',
            },
          ]
        : issues.map((issue) => ({
            file,
            line: 0,
            col: 0,
            path: ['options', ...issue.path.map(String)].join('.'),
            message: issue.message,
            severity: 'error',
          }));
    return fail(
      new HarnessEvalError(error.code, error.message, { cause: error.cause, diagnostics, data: error.data }),
    );
  }

  /**
   * Creates the agent a harness config names: checks its options, loads the adapter and lets it
   * prepare (import a module, check env references). Throws `HarnessEvalError('invalid_config')`.
   */
  async createAgent(harness: HarnessConfig, environment: CreateAgentEnvironment): Promise<AgentV1> {
    const options = this.checkHarness(harness, environment);
    if (!options.ok) throw options.error;
    const definition = await this.load(harness.adapter);
    const adapterEnvironment: AdapterEnvironment = {
      baseDir: environment.baseDir,
      harness,
      env: environment.env ?? process.env,
    };
    let created: unknown;
    try {
      created = await definition.create(options.value, adapterEnvironment);
    } catch (error) {
      if (HarnessEvalError.is(error)) throw error;
      throw new HarnessEvalError(
        'invalid_config',
        `adapter "${harness.adapter}" could not be created: ${errorMessage(error)}`,
        { cause: error },
      );
    }
    return this.resolve(created, harness.adapter);
  }
}

/** The adapters of the default plugin set. */
export const defaultAdapterRegistry = new AdapterRegistry();

/**
 * Adds a user adapter (a plugin); returns a function that removes it again. Its name must not be
 * a built-in's, and a name another definition holds is refused (the same definition again is a no-op).
 */
export function registerAdapter<S extends z.ZodType>(
  definition: AdapterDefinition<S>,
  registry: AdapterRegistry = defaultAdapterRegistry,
): () => void {
  const stored: AdapterDefinition = definition;
  return registry.register(stored);
}

/** Every adapter name, built-ins first. */
export function adapterNames(registry: AdapterRegistry = defaultAdapterRegistry): string[] {
  return registry.names();
}

/** The entry of an adapter name: its option schema and description, and how to load it. */
export function findAdapter(
  name: string,
  registry: AdapterRegistry = defaultAdapterRegistry,
): AdapterEntry | undefined {
  const builtin = registry.isBuiltin(name) ? builtinAdapters[name] : undefined;
  if (builtin !== undefined) return builtin;
  const plugin = registry.plugin(name);
  return plugin && { options: plugin.options, description: plugin.description, load: async () => plugin };
}

/**
 * Checks a harness config's adapter name and options against the registry without loading the
 * adapter: `{ ok, value: parsed options }` or `{ ok: false, error }` with one diagnostic per issue.
 */
export function safeParseAdapterOptions(
  harness: Pick<HarnessConfig, 'adapter' | 'options'>,
  options: AdapterCheckOptions = {},
  registry: AdapterRegistry = defaultAdapterRegistry,
): Result<unknown> {
  return registry.checkHarness(harness, options);
}

export interface CreateAgentEnvironment extends AdapterCheckOptions {
  /** Relative paths in the options resolve against this folder (the config file's). */
  readonly baseDir: string;
  /** For `${ENV_VAR}` expansion; `process.env` by default. Never stored. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Creates the agent a harness config names (see `AdapterRegistry.createAgent`).
 *
 * @example const agent = await createAgent(harness, { baseDir: dirname(file) });
 */
export function createAgent(
  harness: HarnessConfig,
  environment: CreateAgentEnvironment,
  registry: AdapterRegistry = defaultAdapterRegistry,
): Promise<AgentV1> {
  return registry.createAgent(harness, environment);
}
