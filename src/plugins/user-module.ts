import { access } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HarnessEvalError } from '../core/errors.ts';

/**
 * The one loader of user code named in files: the `function` adapter's harness, the `javascript`
 * evaluator's check and `--plugin` modules all come through here, so a module that loads for one
 * loads for all (in vitest and in the CommonJS CLI bundle alike).
 */
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
  if (hash !== -1) return checked(spec, spec.slice(0, hash), spec.slice(hash + 1) || 'default');
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
 * Imports a user module relative to `baseDir`: TypeScript through tsx's ESM API (no build step
 * for the user), JavaScript through `import()`. tsx is imported dynamically on purpose: in the
 * CommonJS CLI bundle a static import becomes `require('tsx/esm/api')`, whose CommonJS build
 * cannot find its own ESM half.
 * @throws HarnessEvalError `invalid_config` for a missing file or one that cannot load
 */
export async function importUserModule(path: string, baseDir: string): Promise<Record<string, unknown>> {
  const absolute = resolve(baseDir, path);
  try {
    await access(absolute);
  } catch (error) {
    throw new HarnessEvalError('invalid_config', `cannot load module ${absolute}: file not found`, {
      cause: error,
      data: { path: absolute },
    });
  }
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

/** One export of `./file.ts#name` (default export without `#name`), resolved against `baseDir`. */
export async function loadUserExport(spec: string, baseDir: string): Promise<unknown> {
  const ref = parseModuleRef(spec);
  const exports = await importUserModule(ref.path, baseDir);
  if (!Object.hasOwn(exports, ref.exportName)) {
    const names = Object.keys(exports);
    throw new HarnessEvalError(
      'invalid_config',
      `module ${spec} has no export "${ref.exportName}"; exports are: ${names.length > 0 ? names.join(', ') : '(none)'}`,
      { data: { path: resolve(baseDir, ref.path), exportName: ref.exportName, exports: names } },
    );
  }
  return exports[ref.exportName];
}

/**
 * The module's exports. A TypeScript file outside a `"type": "module"` package is compiled to
 * CommonJS, and Node then hands back `{ default: module.exports }`: its `__esModule` marker says
 * the real exports (with the real `default`) are one level down.
 */
function namespaceOf(loaded: unknown): Record<string, unknown> {
  if (typeof loaded !== 'object' || loaded === null) return {};
  const namespace: Record<string, unknown> = { ...loaded };
  const inner = namespace['default'];
  if (typeof inner === 'object' && inner !== null && Reflect.get(inner, '__esModule') === true)
    return { ...namespace, ...inner };
  return namespace;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}
