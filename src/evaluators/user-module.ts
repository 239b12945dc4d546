import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { errorMessage, HarnessEvalError } from '../core/errors.ts';

export interface ModuleReference {
  readonly file: string;
  readonly exportName: string;
}

/** `./checks.ts#isPolite` -> file + export; without `#name` the default export. */
export function parseModuleReference(reference: string): ModuleReference {
  const hash = reference.lastIndexOf('#');
  if (hash < 0) return { file: reference, exportName: 'default' };
  return { file: reference.slice(0, hash), exportName: reference.slice(hash + 1) || 'default' };
}

/**
 * Loads one export of a user's TypeScript or JavaScript file at run time (tsx), resolved
 * against `baseDir`. Missing files and exports are configuration errors, not crashes.
 */
export async function loadUserExport(reference: string, baseDir: string): Promise<unknown> {
  const { file, exportName } = parseModuleReference(reference);
  const path = resolve(baseDir, file);
  try {
    await access(path);
  } catch (error) {
    throw new HarnessEvalError('not_found', `module ${reference}: file not found: ${path}`, { cause: error });
  }
  let namespace: unknown;
  try {
    namespace = await tsImport(pathToFileURL(path).href, import.meta.url);
  } catch (error) {
    throw new HarnessEvalError(
      'invalid_config',
      `module ${reference}: cannot load ${path}: ${errorMessage(error)}`,
      {
        cause: error,
      },
    );
  }
  if (typeof namespace !== 'object' || namespace === null || !(exportName in namespace)) {
    throw new HarnessEvalError(
      'invalid_config',
      `module ${reference}: ${path} has no export "${exportName}"`,
    );
  }
  return Reflect.get(namespace, exportName);
}
