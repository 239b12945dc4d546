import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AuthError } from '../../src/errors.ts';
import { makeAuth } from './support.ts';

const code = (e: unknown) => (e instanceof AuthError ? e.code : String(e));

test('login with the right password returns a fresh session', async () => {
  const { auth } = makeAuth();
  const user = await auth.signUp('ada@example.com', 'correct horse');
  const first = await auth.logIn('ADA@example.com', 'correct horse');
  const second = await auth.logIn('ada@example.com', 'correct horse');
  assert.equal(first.userId, user.id);
  assert.notEqual(first.id, second.id);
  assert.ok(first.id.length >= 43, 'at least 32 random bytes in base64url');
  assert.deepEqual(auth.getSession(first.id)?.userId, user.id);
});

test('wrong password, unknown e-mail and password-less accounts all fail the same way', async () => {
  const { auth, users } = makeAuth();
  await auth.signUp('ada@example.com', 'correct horse');
  users.create({ email: 'oauth@example.com', oauth: [{ provider: 'github', subject: '7' }] });
  await assert.rejects(
    auth.logIn('ada@example.com', 'wrong horse'),
    (e) => code(e) === 'invalid_credentials',
  );
  await assert.rejects(
    auth.logIn('nobody@example.com', 'correct horse'),
    (e) => code(e) === 'invalid_credentials',
  );
  await assert.rejects(
    auth.logIn('oauth@example.com', 'anything at all'),
    (e) => code(e) === 'invalid_credentials',
  );
});
