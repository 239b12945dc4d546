import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HarnessEvalError } from '../core/errors.ts';

export interface ModuleRef {
  readonly path: string;
  readonly exportName: string;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Parses `./path.ts#exportName` or `./path.ts:exportName`; the export defaults to `default`.
 * A colon at index 1 is a Windows drive letter, not an export.
 */
export function parseModuleRef(spec: string): ModuleRef {
  const hash = spec.lastIndexOf('#');
  if (hash !== -1) return checked(spec, spec.slice(0, hash), spec.slice(hash + 1));
  const colon = spec.lastIndexOf(':');
  if (colon > 1 && IDENTIFIER.test(spec.slice(colon + 1))) {
    return checked(spec, spec.slice(0, colon), spec.slice(colon + 1));
  }
  return checked(spec, spec, 'default');
}

function checked(spec: string, path: string, exportName: string): ModuleRef {
  if (path === '' || !IDENTIFIER.test(exportName)) {
    throw new HarnessEvalError(
      'invalid_config',
      `module "${spec}" is not of the form ./path/to/file.ts#exportName`,
    );
  }
  return { path, exportName };
}

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);

/**
 * Imports a user module relative to `baseDir`: TypeScript through tsx's ESM API (no build
 * step for the user), JavaScript through `import()`.
 */
export async function importUserModule(path: string, baseDir: string): Promise<Record<string, unknown>> {
  const absolute = resolve(baseDir, path);
  const url = pathToFileURL(absolute).href;
  try {
    if (TYPESCRIPT.has(extname(absolute))) {
      const { tsImport } = await import('tsx/esm/api');
      const loaded: unknown = await tsImport(url, { parentURL: import.meta.url });
      return namespaceOf(loaded);
    }
    const loaded: unknown = await import(url);
    return namespaceOf(loaded);
  } catch (error) {
    throw new HarnessEvalError('invalid_config', `cannot load module ${absolute}: ${messageOf(error)}`, {
      cause: error,
      data: { path: absolute },
    });
  }
}

function namespaceOf(loaded: unknown): Record<string, unknown> {
  return typeof loaded === 'object' && loaded !== null ? { ...loaded } : {};
}

function messageOf(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}
