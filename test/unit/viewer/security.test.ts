import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  cookieValue,
  hostAllowed,
  newToken,
  sameOrigin,
  tokenCookieName,
  tokenMatches,
} from '../../../src/viewer/security.ts';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
const ORIGINS = ['http://127.0.0.1:4173', 'http://localhost:4173'];

describe('viewer token', () => {
  it('is new and long for each server, and matches only itself', () => {
    const a = newToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(newToken()).not.toBe(a);
    expect(tokenMatches(a, a)).toBe(true);
    expect(tokenMatches(a, `${a}x`)).toBe(false);
    expect(tokenMatches(a, a.slice(0, -1))).toBe(false);
    expect(tokenMatches(a, '')).toBe(false);
    expect(tokenMatches(a, undefined)).toBe(false);
    expect(tokenMatches(a, null)).toBe(false);
  });

  it('is read back from its per-port cookie among others', () => {
    const name = tokenCookieName(4173);
    expect(name).toBe('harnesseval_view_4173');
    expect(cookieValue(request({ cookie: `a=1; ${name}=t=k; b=2` }), name)).toBe('t=k');
    expect(cookieValue(request({ cookie: 'harnesseval_view_1=x' }), name)).toBeUndefined();
    expect(cookieValue(request({}), name)).toBeUndefined();
  });
});

describe('sameOrigin', () => {
  it('accepts a POST from a page of this server', () => {
    expect(sameOrigin(request({ origin: 'http://127.0.0.1:4173' }), ORIGINS)).toBe(true);
    expect(
      sameOrigin(request({ origin: 'http://LOCALHOST:4173', 'sec-fetch-site': 'same-origin' }), ORIGINS),
    ).toBe(true);
    expect(sameOrigin(request({ 'sec-fetch-site': 'same-origin' }), ORIGINS)).toBe(true);
    // Chromium's own form under Referrer-Policy: no-referrer.
    expect(sameOrigin(request({ origin: 'null', 'sec-fetch-site': 'same-origin' }), ORIGINS)).toBe(true);
  });

  it('refuses another origin, another port, a cross-site fetch and a request that says nothing', () => {
    expect(sameOrigin(request({ origin: 'http://evil.example' }), ORIGINS)).toBe(false);
    expect(sameOrigin(request({ origin: 'http://127.0.0.1:9999' }), ORIGINS)).toBe(false);
    expect(sameOrigin(request({ origin: 'null' }), ORIGINS)).toBe(false);
    expect(sameOrigin(request({ origin: 'null', 'sec-fetch-site': 'cross-site' }), ORIGINS)).toBe(false);
    expect(
      sameOrigin(request({ origin: 'http://127.0.0.1:4173', 'sec-fetch-site': 'cross-site' }), ORIGINS),
    ).toBe(false);
    expect(sameOrigin(request({ 'sec-fetch-site': 'same-site' }), ORIGINS)).toBe(false);
    expect(sameOrigin(request({}), ORIGINS)).toBe(false);
  });
});

describe('hostAllowed', () => {
  it('accepts only the names of this server (DNS rebinding sends its own)', () => {
    const hosts = ['127.0.0.1:4173', 'localhost:4173'];
    expect(hostAllowed('127.0.0.1:4173', hosts)).toBe(true);
    expect(hostAllowed('LocalHost:4173', hosts)).toBe(true);
    expect(hostAllowed('evil.example:4173', hosts)).toBe(false);
    expect(hostAllowed('127.0.0.1', hosts)).toBe(false);
    expect(hostAllowed(undefined, hosts)).toBe(false);
  });
});
