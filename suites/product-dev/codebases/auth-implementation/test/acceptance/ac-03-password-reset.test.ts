import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AuthError } from '../../src/errors.ts';
import { MINUTE, makeAuth } from './support.ts';

const code = (e: unknown) => (e instanceof AuthError ? e.code : String(e));

function tokenFrom(text: string | undefined): string {
  const match = /token: (\S+)/.exec(text ?? '');
  assert.ok(match?.[1], `no token line in ${text}`);
  return match[1];
}

test('a reset e-mail carries a single-use token that replaces the password and ends sessions', async () => {
  const { auth, mailer } = makeAuth();
  await auth.signUp('ada@example.com', 'correct horse');
  const session = await auth.logIn('ada@example.com', 'correct horse');

  await auth.requestPasswordReset('Ada@Example.com');
  assert.equal(mailer.sent.length, 1);
  assert.equal(mailer.sent[0]?.to, 'ada@example.com');
  assert.equal(mailer.sent[0]?.subject, 'Reset your password');
  const token = tokenFrom(mailer.sent[0]?.text);

  await assert.rejects(auth.resetPassword(token, 'short'), (e) => code(e) === 'weak_password');
  await auth.resetPassword(token, 'battery staple');
  await assert.rejects(
    auth.logIn('ada@example.com', 'correct horse'),
    (e) => code(e) === 'invalid_credentials',
  );
  assert.ok(await auth.logIn('ada@example.com', 'battery staple'));
  assert.equal(auth.getSession(session.id), undefined, 'old sessions end on reset');
  await assert.rejects(auth.resetPassword(token, 'yet another one'), (e) => code(e) === 'invalid_token');
});

test('unknown e-mails get no message and no error; tokens expire', async () => {
  const { auth, mailer, clock } = makeAuth({ resetTokenTtlMs: 15 * MINUTE });
  await auth.requestPasswordReset('nobody@example.com');
  assert.equal(mailer.sent.length, 0);

  await auth.signUp('ada@example.com', 'correct horse');
  await auth.requestPasswordReset('ada@example.com');
  const token = tokenFrom(mailer.sent[0]?.text);
  clock.advance(15 * MINUTE);
  await assert.rejects(auth.resetPassword(token, 'battery staple'), (e) => code(e) === 'invalid_token');
  await assert.rejects(auth.resetPassword('made-up', 'battery staple'), (e) => code(e) === 'invalid_token');
});
