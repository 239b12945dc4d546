import { HarnessEvalError } from '../core/errors.ts';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The variable names a template references, in order of first use. */
export function envTemplateNames(template: string): string[] {
  return [...new Set(Array.from(template.matchAll(REFERENCE), (match) => match[1] ?? ''))];
}

/** Names referenced by the template that `env` does not define. */
export function missingEnvNames(template: string, env: NodeJS.ProcessEnv): string[] {
  return envTemplateNames(template).filter((name) => env[name] === undefined);
}

/**
 * Replaces each `${NAME}` with `env[NAME]`. A missing variable is an error that names it (and
 * `where`, e.g. `headers.Authorization`) but never shows any value: the result is a secret more
 * often than not, so the caller uses it and drops it.
 */
export function expandEnvTemplate(template: string, env: NodeJS.ProcessEnv, where?: string): string {
  const missing = missingEnvNames(template, env);
  if (missing.length > 0) {
    const place = where === undefined ? '' : ` (in ${where})`;
    throw new HarnessEvalError(
      'invalid_config',
      `environment variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set${place}`,
      { data: { missing } },
    );
  }
  return template.replace(REFERENCE, (_match, name: string) => env[name] ?? '');
}
