import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AuthError } from '../../src/errors.ts';
import type { OAuthProvider } from '../../src/oauth.ts';
import { makeAuth } from './support.ts';

const code = (e: unknown) => (e instanceof AuthError ? e.code : String(e));

function fakeProvider(profiles: Record<string, { subject: string; email: string }>): OAuthProvider {
  return {
    async exchangeCode(authCode) {
      const profile = profiles[authCode];
      if (!profile) throw new Error('bad code');
      return profile;
    },
  };
}

function setup() {
  const google = fakeProvider({ g1: { subject: 'google-1', email: 'Ada@Example.com' } });
  const github = fakeProvider({
    h1: { subject: 'gh-1', email: 'ada@example.com' },
    h2: { subject: 'gh-2', email: 'new@example.com' },
  });
  return makeAuth({ oauthProviders: { google, github } });
}

test('Google and GitHub callbacks link to one account and return sessions', async () => {
  const { auth, users } = setup();
  const existing = await auth.signUp('ada@example.com', 'correct horse');

  const viaGoogle = await auth.handleOAuthCallback('google', {
    code: 'g1',
    state: auth.startOAuth('google').state,
  });
  const viaGithub = await auth.handleOAuthCallback('github', {
    code: 'h1',
    state: auth.startOAuth('github').state,
  });
  assert.equal(viaGoogle.userId, existing.id);
  assert.equal(viaGithub.userId, existing.id);
  assert.equal(auth.getSession(viaGithub.id)?.userId, existing.id);
  assert.equal(users.findByOAuth('google', 'google-1')?.id, existing.id);

  const fresh = await auth.handleOAuthCallback('github', {
    code: 'h2',
    state: auth.startOAuth('github').state,
  });
  const created = users.findById(fresh.userId);
  assert.equal(created?.email, 'new@example.com');
  assert.equal(created?.passwordHash, undefined);
  const again = await auth.handleOAuthCallback('github', {
    code: 'h2',
    state: auth.startOAuth('github').state,
  });
  assert.equal(again.userId, fresh.userId, 'the linked subject finds the same user');
});

test('states are single use and provider bound; failures are coded', async () => {
  const { auth } = setup();
  assert.throws(
    () => auth.startOAuth('myspace'),
    (e) => code(e) === 'unknown_provider',
  );
  const { state } = auth.startOAuth('google');
  await assert.rejects(
    auth.handleOAuthCallback('github', { code: 'h1', state }),
    (e) => code(e) === 'invalid_state',
  );
  await assert.rejects(
    auth.handleOAuthCallback('google', { code: 'g1', state: 'forged' }),
    (e) => code(e) === 'invalid_state',
  );

  const used = auth.startOAuth('google').state;
  await auth.handleOAuthCallback('google', { code: 'g1', state: used });
  await assert.rejects(
    auth.handleOAuthCallback('google', { code: 'g1', state: used }),
    (e) => code(e) === 'invalid_state',
  );

  const failing = auth.startOAuth('google').state;
  await assert.rejects(
    auth.handleOAuthCallback('google', { code: 'nope', state: failing }),
    (e) => code(e) === 'oauth_failed',
  );
});
