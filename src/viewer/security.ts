import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SERVED_PAGE_CSP } from '../reporters/html/page.ts';

/** A fresh per-server secret: only the URL the `view` command prints carries it. */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Compares in constant time, so a page cannot learn the token a character at a time. */
export function tokenMatches(expected: string, given: string | undefined | null): boolean {
  if (given === undefined || given === null) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The cookie that keeps the token for this server (cookies ignore ports, so the port is in the name). */
export function tokenCookieName(port: number): string {
  return `harnesseval_view_${port}`;
}

export function cookieValue(request: IncomingMessage, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/**
 * Whether the Host header names this server. Refusing other names defeats DNS rebinding: a remote
 * page whose name resolves to 127.0.0.1 still sends its own name as Host.
 */
export function hostAllowed(host: string | undefined, allowed: readonly string[]): boolean {
  return host !== undefined && allowed.includes(host.toLowerCase());
}

/**
 * A write must come from one of this server's own pages: browsers send `Origin` on every POST
 * (and `Sec-Fetch-Site` when they know it), so a form on another site is told apart here.
 * A request that says neither is refused.
 */
export function sameOrigin(request: IncomingMessage, origins: readonly string[]): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = request.headers.origin;
  // Under `Referrer-Policy: no-referrer` Chromium sends `Origin: null` even on its own forms;
  // then the browser-set Sec-Fetch-Site (no page can forge it) decides.
  if (origin === undefined || origin === 'null') return site === 'same-origin';
  return origins.includes(origin.toLowerCase());
}

/** Headers on every answer: the served-page CSP, no sniffing, no framing, no caching, no referrer. */
export function securityHeaders(response: ServerResponse): void {
  response.setHeader('Content-Security-Policy', `${SERVED_PAGE_CSP}; frame-ancestors 'none'`);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('X-Frame-Options', 'DENY');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}
