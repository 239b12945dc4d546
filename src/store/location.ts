/**
 * What a `--store` value names: a PostgreSQL server (`postgres://…` or `postgresql://…`), the
 * in-memory store (`:memory:`), or a SQLite file. Kept apart from the stores so the CLI can tell
 * and name a store without loading a driver.
 */
export type StoreKind = 'postgres' | 'memory' | 'sqlite';

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

export function storeKind(location: string): StoreKind {
  if (POSTGRES_URL.test(location)) return 'postgres';
  if (location === ':memory:') return 'memory';
  return 'sqlite';
}

/**
 * The location as it may be printed: a URL's password (in the user part or a `password=`
 * parameter) replaced by `***`. Also for text that is not a valid URL.
 *
 * @example redactStoreLocation('postgres://ci:hunter22@db/evals') // 'postgres://ci:***@db/evals'
 */
export function redactStoreLocation(location: string): string {
  if (storeKind(location) !== 'postgres') return location;
  try {
    const url = new URL(location);
    if (url.password !== '') url.password = '***';
    if (url.searchParams.has('password')) url.searchParams.set('password', '***');
    return url.href;
  } catch {
    return location
      .replace(/^([a-z]+:\/\/[^/:@]*:)[^@/]*@/i, '$1***@')
      .replace(/([?&]password=)[^&]*/i, '$1***');
  }
}
