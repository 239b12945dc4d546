import assert from 'node:assert/strict';
import { scryptSync } from 'node:crypto';
import { test } from 'node:test';
import { AuthError } from '../../src/errors.ts';
import { makeAuth } from './support.ts';

test('sign-up stores a normalised e-mail and a salted scrypt hash, never the password', async () => {
  const { auth, users } = makeAuth();
  const user = await auth.signUp('  Ada@Example.COM ', 'correct horse');
  assert.equal(user.email, 'ada@example.com');
  assert.equal(users.findByEmail('ada@example.com')?.id, user.id);

  const [scheme, salt, key] = (user.passwordHash ?? '').split('$');
  assert.equal(scheme, 'scrypt');
  assert.match(salt ?? '', /^[0-9a-f]{32}$/);
  assert.match(key ?? '', /^[0-9a-f]{128}$/);
  assert.equal(scryptSync('correct horse', Buffer.from(salt ?? '', 'hex'), 64).toString('hex'), key);
  assert.ok(!JSON.stringify(user).includes('correct horse'));

  const other = await auth.signUp('bob@example.com', 'correct horse');
  assert.notEqual(other.passwordHash, user.passwordHash, 'each password gets its own salt');
});

test('sign-up rejects duplicates, malformed e-mails and short passwords with coded errors', async () => {
  const { auth } = makeAuth();
  await auth.signUp('ada@example.com', 'correct horse');
  const code = (e: unknown) => (e instanceof AuthError ? e.code : String(e));
  await assert.rejects(auth.signUp('ADA@example.com', 'another password'), (e) => code(e) === 'email_taken');
  await assert.rejects(auth.signUp('not-an-email', 'long enough'), (e) => code(e) === 'invalid_email');
  await assert.rejects(auth.signUp('a@b', 'long enough'), (e) => code(e) === 'invalid_email');
  await assert.rejects(auth.signUp('new@example.com', 'short'), (e) => code(e) === 'weak_password');
});
