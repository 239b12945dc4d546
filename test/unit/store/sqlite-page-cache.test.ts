import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteDatabase, PAGE_CACHE_KIB } from '../../../src/store/sqlite-driver.ts';
import { SqliteStore } from '../../../src/store/sqlite-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'harnesseval-page-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("SQLite's page cache", () => {
  it('is 4 MiB per connection, not the driver build default of 16 MiB', () => {
    expect(PAGE_CACHE_KIB).toBe(4096);
    const db = openSqliteDatabase(join(dir, 'plain.db'));
    try {
      expect(db.pragma('cache_size', { simple: true })).toBe(-4096);
    } finally {
      db.close();
    }
  });

  it('applies to the store file a run writes and to its read-only readers', async () => {
    const path = join(dir, 'store.db');
    const writer = new SqliteStore(path);
    const reader = new SqliteStore(path, { readonly: true });
    try {
      expect(writer.settings().cache_size).toBe(-4096);
      expect(reader.settings().cache_size).toBe(-4096);
    } finally {
      await reader.close();
      await writer.close();
    }
  });
});
