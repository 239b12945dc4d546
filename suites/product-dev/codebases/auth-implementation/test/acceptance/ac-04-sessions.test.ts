import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MINUTE, makeAuth } from './support.ts';

test('a session survives reloads while active and expires after the idle timeout', async () => {
  const { auth, clock } = makeAuth({ sessionTimeoutMs: 10 * MINUTE });
  await auth.signUp('ada@example.com', 'correct horse');
  const session = await auth.logIn('ada@example.com', 'correct horse');
  assert.equal(session.expiresAt, clock.now() + 10 * MINUTE);

  clock.advance(9 * MINUTE);
  assert.equal(auth.getSession(session.id)?.id, session.id, 'a reload keeps the session');
  clock.advance(9 * MINUTE);
  assert.equal(auth.getSession(session.id)?.id, session.id, 'activity extends the session');
  clock.advance(10 * MINUTE);
  assert.equal(auth.getSession(session.id), undefined, 'idle for the whole timeout: expired');
});

test('the default timeout is 30 minutes; logout ends a session; unknown ids are undefined', async () => {
  const { auth, clock } = makeAuth();
  await auth.signUp('ada@example.com', 'correct horse');
  const kept = await auth.logIn('ada@example.com', 'correct horse');
  const ended = await auth.logIn('ada@example.com', 'correct horse');
  auth.logOut(ended.id);
  assert.equal(auth.getSession(ended.id), undefined);
  assert.equal(auth.getSession('no-such-session'), undefined);
  clock.advance(30 * MINUTE - 1);
  assert.ok(auth.getSession(kept.id));
  clock.advance(30 * MINUTE);
  assert.equal(auth.getSession(kept.id), undefined);
});
