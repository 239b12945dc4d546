import type { z } from 'zod';
import { HarnessEvalError } from '../core/errors.ts';

export type PluginKind = 'metric' | 'adapter';

/**
 * The one rule of every registry: a name taken by another plugin is refused (two plugins never
 * replace each other silently); registering the same definition again is a no-op.
 */
export function alreadyRegistered(
  kind: PluginKind | 'reporter' | 'evaluator',
  name: string,
): HarnessEvalError {
  return new HarnessEvalError(
    'invalid_config',
    `a${kind === 'evaluator' || kind === 'adapter' ? 'n' : ''} ${kind} named "${name}" is already registered (unregister it first)`,
    { data: { [kind]: name } },
  );
}

/**
 * Names and option schemas of plugins registered at run time, so that a file naming one is
 * checked like a built-in when it loads. The registries write here; the formats read it. It holds
 * no implementations, so the formats never load plugin code.
 */
const declared: Record<PluginKind, Map<string, z.ZodType>> = {
  metric: new Map(),
  adapter: new Map(),
};

export function declarePlugin(kind: PluginKind, name: string, options: z.ZodType): () => void {
  declared[kind].set(name, options);
  return () => {
    if (declared[kind].get(name) === options) declared[kind].delete(name);
  };
}

/** The option schema of a registered plugin, or undefined when none has that name. */
export function pluginOptions(kind: PluginKind, name: string): z.ZodType | undefined {
  return declared[kind].get(name);
}

export function pluginNames(kind: PluginKind): string[] {
  return [...declared[kind].keys()];
}
