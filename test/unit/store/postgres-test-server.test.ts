import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPostgresBin } from '../../helpers/postgres-cluster.ts';

// The PostgreSQL tests fail, never skip, without a server: the message must say what to install.
describe('findPostgresBin (test infrastructure)', () => {
  it('finds Debian’s server binaries', () => {
    const bin = findPostgresBin({ env: {} });
    expect(existsSync(join(bin, 'initdb'))).toBe(true);
    expect(existsSync(join(bin, 'pg_ctl'))).toBe(true);
  });

  it('says where it looked and what to install when there is no server', () => {
    expect(() => findPostgresBin({ env: {}, roots: ['/nonexistent/postgresql'] })).toThrow(
      /none found in \/nonexistent\/postgresql\/\*\/bin.*apt-get install postgresql.*HARNESSEVAL_PG_BIN/,
    );
  });

  it('refuses a HARNESSEVAL_PG_BIN without a server in it', () => {
    expect(() => findPostgresBin({ env: { HARNESSEVAL_PG_BIN: '/tmp' } })).toThrow(
      'HARNESSEVAL_PG_BIN=/tmp holds no initdb and pg_ctl',
    );
  });
});
