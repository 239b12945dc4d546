import { HarnessEvalError } from '../core/errors.ts';

/**
 * The `specificationVersion` check at the plugin seam. Each kind has one `resolve` function (in
 * its room's registry) that switches on the version; this module holds what they share: reading
 * the version and the one refusal message, which names the kind, the name, the version found and
 * the versions supported.
 */

/** The `specificationVersion` a value declares, or undefined when it has none (or is no object). */
export function specificationVersionOf(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  return Reflect.get(value, 'specificationVersion');
}

function shown(version: unknown): string {
  return typeof version === 'string' ? `"${version}"` : String(version);
}

/** `evaluator "polite" has specificationVersion "v2"; this HarnessEval supports "v1"`. */
export function unsupportedVersion(
  kind: string,
  name: string,
  found: unknown,
  supported: readonly string[],
): HarnessEvalError {
  const has =
    found === undefined ? 'has no specificationVersion' : `has specificationVersion ${shown(found)}`;
  return new HarnessEvalError(
    'invalid_config',
    `${kind} "${name}" ${has}; this HarnessEval supports ${supported.map(shown).join(', ')} (update HarnessEval or the plugin)`,
    { data: { kind, name, found, supported } },
  );
}

/**
 * Checks the version a definition declares (it may declare none: its instances are checked when
 * they are created).
 */
export function checkDeclaredVersion(
  kind: string,
  definition: { readonly name: string; readonly specificationVersion?: unknown },
  supported: readonly string[],
): void {
  const declared = definition.specificationVersion;
  if (declared === undefined) return;
  if (typeof declared !== 'string' || !supported.includes(declared))
    throw unsupportedVersion(kind, definition.name, declared, supported);
}

/**
 * Narrows an instance to a contract once its version is known: the instance has the version and
 * every method the contract requires. A value missing a method is refused like a wrong version.
 */
export function hasMethods<T>(value: unknown, methods: readonly string[]): value is T {
  if (typeof value !== 'object' || value === null) return false;
  return methods.every((m) => typeof Reflect.get(value, m) === 'function');
}

/** The refusal of an instance of a known version that lacks a method of its contract. */
export function missingMethods(kind: string, name: string, version: string, methods: readonly string[]) {
  return new HarnessEvalError(
    'invalid_config',
    `${kind} "${name}" says specificationVersion "${version}" but does not implement ${methods.join(', ')}`,
    { data: { kind, name, version } },
  );
}
