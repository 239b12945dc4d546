import { z } from 'zod';
import { HarnessEvalError, type Result } from '../core/errors.ts';
import { closestName, didYouMean } from '../util/suggest.ts';
import { checkDeclaredVersion } from './version.ts';

/** The kinds of plugin; each has one registry per plugin set. */
export type PluginKindName = 'evaluator' | 'metric' | 'adapter' | 'reporter';

/** What every registered definition has: a name, and the zod schema of its options (none: no options). */
export interface PluginDefinition {
  readonly name: string;
  readonly description?: string;
  readonly options?: z.ZodType;
  /** The contract version the definition's instances implement; checked when it is registered. */
  readonly specificationVersion?: string;
}

/**
 * A built-in: its option schema and description are cheap to hold, so `validate` checks files
 * without loading anything; the implementation is given, or imported on first use.
 */
export type BuiltinEntry<D> = {
  readonly options: z.ZodType;
  readonly description: string;
} & ({ readonly definition: D } | { readonly load: () => Promise<D> });

/**
 * One kind of plugin: its built-ins, the contract versions it runs, and `resolve`, the one place
 * where an instance of any supported version becomes the current contract (as the Vercel AI SDK's
 * `resolve-model.ts` does for language models). A v2 contract adds a case there, nowhere else.
 */
export interface PluginKindSpec<D extends PluginDefinition, I, B extends Record<string, BuiltinEntry<D>>> {
  readonly kind: PluginKindName;
  readonly builtins: B;
  /** The `specificationVersion`s this HarnessEval runs. */
  readonly versions: readonly string[];
  /** An instance a definition created (or a user handed over) -> the current contract; throws for an unknown version. */
  readonly resolve: (instance: unknown, name: string) => I;
  /** A kind's own rules for a new registration beyond the name rule (a reporter's file extensions). */
  readonly admit?: (definition: D, registry: PluginRegistry<D, I, B>) => void;
}

/** Types a plugin kind's spec (identity at run time). */
export function definePluginKind<D extends PluginDefinition, I, B extends Record<string, BuiltinEntry<D>>>(
  spec: PluginKindSpec<D, I, B>,
): PluginKindSpec<D, I, B> {
  return spec;
}

const NO_OPTIONS = z.strictObject({});

/** `an evaluator`, `a metric`. */
function article(kind: PluginKindName): string {
  return kind === 'evaluator' || kind === 'adapter' ? `an ${kind}` : `a ${kind}`;
}

/**
 * Name -> definition for one kind. The rules are the same for every kind: built-ins cannot be
 * replaced; registering the same definition again is a no-op, another definition under a taken
 * name is refused; the function `register` returns removes that definition and nothing else;
 * every refusal is a `HarnessEvalError('invalid_config')`, an unknown name with "did you mean".
 */
export class PluginRegistry<D extends PluginDefinition, I, B extends Record<string, BuiltinEntry<D>>> {
  readonly #plugins = new Map<string, D>();

  constructor(readonly spec: PluginKindSpec<D, I, B>) {}

  get kind(): PluginKindName {
    return this.spec.kind;
  }

  isBuiltin(name: string): name is Extract<keyof B, string> {
    return Object.hasOwn(this.spec.builtins, name);
  }

  /** A built-in's entry (schema, description, implementation), or undefined for another name. */
  builtin(name: string): BuiltinEntry<D> | undefined {
    const builtins: Record<string, BuiltinEntry<D>> = this.spec.builtins;
    return Object.hasOwn(builtins, name) ? builtins[name] : undefined;
  }

  has(name: string): boolean {
    return this.isBuiltin(name) || this.#plugins.has(name);
  }

  /** Every name: built-ins first, then plugins in registration order. */
  names(): string[] {
    return [...Object.keys(this.spec.builtins), ...this.#plugins.keys()];
  }

  /** The registered (non built-in) definition of that name. */
  plugin(name: string): D | undefined {
    return this.#plugins.get(name);
  }

  plugins(): D[] {
    return [...this.#plugins.values()];
  }

  /** The option schema of a name, without loading its implementation; undefined for an unknown name. */
  options(name: string): z.ZodType | undefined {
    const builtin = this.builtin(name);
    if (builtin !== undefined) return builtin.options;
    const plugin = this.#plugins.get(name);
    return plugin === undefined ? undefined : (plugin.options ?? NO_OPTIONS);
  }

  description(name: string): string | undefined {
    const builtin = this.builtin(name);
    if (builtin !== undefined) return builtin.description;
    return this.#plugins.get(name)?.description;
  }

  /**
   * Adds a definition; returns a function that removes it (and only it) again.
   * @throws HarnessEvalError('invalid_config') for a built-in's name, a name another definition
   * holds, or a `specificationVersion` this HarnessEval does not run
   */
  register(definition: D): () => void {
    const { name } = definition;
    const unregister = () => {
      this.unregister(definition);
    };
    if (this.isBuiltin(name)) {
      throw new HarnessEvalError(
        'invalid_config',
        `cannot register ${article(this.kind)} "${name}": a built-in ${this.kind} has that name and cannot be replaced`,
        { data: { kind: this.kind, name } },
      );
    }
    const existing = this.#plugins.get(name);
    // The same definition again (a plugin module loaded twice) is a no-op; another one is refused.
    if (existing === definition) return unregister;
    if (existing !== undefined) {
      throw new HarnessEvalError(
        'invalid_config',
        `${article(this.kind)} named "${name}" is already registered (unregister it first)`,
        { data: { kind: this.kind, name } },
      );
    }
    checkDeclaredVersion(this.kind, definition, this.spec.versions);
    this.spec.admit?.(definition, this);
    this.#plugins.set(name, definition);
    return unregister;
  }

  /** Removes this definition if it is the one registered under its name; returns whether it was. */
  unregister(definition: D): boolean {
    if (this.#plugins.get(definition.name) !== definition) return false;
    return this.#plugins.delete(definition.name);
  }

  /** `unknown evaluator "regx" (did you mean "regex"?)`, with the known names in `data`. */
  unknown(name: string, written = name, extraCandidates: readonly string[] = []): HarnessEvalError {
    const known = this.names();
    const candidates = [...known, ...extraCandidates];
    const suggestion = closestName(name, candidates);
    return new HarnessEvalError(
      'invalid_config',
      `unknown ${this.kind} "${written}"${didYouMean(name, candidates)}`,
      {
        data: { kind: this.kind, name: written, known, ...(suggestion === undefined ? {} : { suggestion }) },
      },
    );
  }

  /** `evaluator "regex": options.pattern: expected string`, one `; `-separated part per issue. */
  optionsError(name: string, error: z.ZodError): HarnessEvalError {
    const issues = error.issues.map(
      (issue) => `${['options', ...issue.path.map(String)].join('.')}: ${issue.message}`,
    );
    return new HarnessEvalError('invalid_config', `${this.kind} "${name}": ${issues.join('; ')}`, {
      cause: error,
      data: { kind: this.kind, name, issues },
    });
  }

  /**
   * Checks a name and its options without loading the implementation (for `validate`/`lint`).
   * Returns the options with their defaults.
   */
  safeCheck(name: string, options: unknown): Result<unknown> {
    const schema = this.options(name);
    if (schema === undefined) return { ok: false, error: this.unknown(name) };
    const parsed = schema.safeParse(options ?? {});
    if (!parsed.success) return { ok: false, error: this.optionsError(name, parsed.error) };
    return { ok: true, value: parsed.data };
  }

  /** The definition when it needs no import (a plugin, or a built-in given directly). */
  definitionNow(name: string): D | undefined {
    const entry = this.builtin(name);
    if (entry === undefined) return this.#plugins.get(name);
    return 'definition' in entry ? entry.definition : undefined;
  }

  /** The definition of a name, importing a built-in's implementation on first use. */
  async load(name: string): Promise<D> {
    const entry = this.builtin(name);
    if (entry !== undefined) return 'definition' in entry ? entry.definition : entry.load();
    const plugin = this.#plugins.get(name);
    if (plugin === undefined) throw this.unknown(name);
    return plugin;
  }

  /** An instance checked at the seam: its `specificationVersion` must be one this HarnessEval runs. */
  resolve(instance: unknown, name: string): I {
    return this.spec.resolve(instance, name);
  }
}
