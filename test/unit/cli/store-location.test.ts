import { describe, expect, it } from 'vitest';
import { chosenStore, shownStore, storeLocation } from '../../../src/cli/store-location.ts';
import { storeKind } from '../../../src/store/location.ts';

const cwd = '/work/project';

describe('storeLocation: --store, else HARNESSEVAL_STORE, else the default file', () => {
  it('takes the flag first, then the environment, then .harnesseval/harnesseval.db', () => {
    const env = { HARNESSEVAL_STORE: 'postgres://ci@db/evals' };
    expect(storeLocation('other.db', { cwd, env })).toBe('/work/project/other.db');
    expect(storeLocation(undefined, { cwd, env })).toBe('postgres://ci@db/evals');
    expect(storeLocation(undefined, { cwd, env: {} })).toBe('/work/project/.harnesseval/harnesseval.db');
    expect(storeLocation(undefined, { cwd, env: { HARNESSEVAL_STORE: '' } })).toBe(
      '/work/project/.harnesseval/harnesseval.db',
    );
    expect(chosenStore(undefined, {})).toBe('.harnesseval/harnesseval.db');
  });

  it('resolves only SQLite paths; URLs and :memory: stay as they are', () => {
    expect(storeLocation('postgresql://h/db', { cwd, env: {} })).toBe('postgresql://h/db');
    expect(storeLocation('POSTGRES://h/db', { cwd, env: {} })).toBe('POSTGRES://h/db');
    expect(storeLocation(':memory:', { cwd, env: {} })).toBe(':memory:');
    expect(storeLocation('/abs/x.db', { cwd, env: {} })).toBe('/abs/x.db');
    expect(storeKind('postgres-notes.db')).toBe('sqlite');
  });
});

describe('shownStore: a store as messages print it', () => {
  it('replaces a password in the user part or a password= parameter, and leaves the rest', () => {
    expect(shownStore('postgres://ci:hunter2-long@db.internal:6543/evals?sslmode=require')).toBe(
      'postgres://ci:***@db.internal:6543/evals?sslmode=require',
    );
    expect(shownStore('postgres://ci@db/evals?password=hunter2-long&schema=team')).toBe(
      'postgres://ci@db/evals?password=***&schema=team',
    );
    expect(shownStore('postgres://ci@db/evals')).toBe('postgres://ci@db/evals');
    expect(shownStore('.harnesseval/harnesseval.db')).toBe('.harnesseval/harnesseval.db');
  });

  it('still hides the password of a URL it cannot parse', () => {
    const shown = shownStore('postgres://ci:hunter2-long@[bad/evals?password=other-secret');
    expect(shown).not.toContain('hunter2-long');
    expect(shown).not.toContain('other-secret');
  });
});
