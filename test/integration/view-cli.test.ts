import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.ts';
import { cli } from '../helpers/run-cli.ts';
import {
  startViewerCli,
  type ViewerProcess,
  type ViewerStore,
  viewerStore,
} from '../helpers/viewer-store.ts';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A raw HTTP request, so that Host, Origin and Cookie are exactly what the test says. */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

let dir: string;
let fixture: ViewerStore;
let viewer: ViewerProcess;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'he-view-cli-'));
  fixture = await viewerStore(dir);
  viewer = await startViewerCli(fixture.path);
}, 60_000);

afterAll(async () => {
  await viewer?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function screens(): string[] {
  return [
    '/',
    `/?suite=demo-suite&harness=demo-harness&status=completed`,
    `/experiments/${fixture.baselineId}`,
    `/experiments/${fixture.candidateId}?task=alpha&open=0`,
    `/compare?id=${fixture.baselineId}&id=${fixture.candidateId}`,
    '/timeline',
    '/timeline?harness=demo-harness&suite=demo-suite',
    `/experiments/${fixture.pendingId}/grade`,
  ];
}

function gradeForm(token: string | undefined): string {
  const form = new URLSearchParams({ run_id: '', criterion: 'ac-02', grader: 'Ann' });
  if (token !== undefined) form.set('token', token);
  form.set('level.code_quality', '4');
  form.set('level.convention_adherence', '3');
  return form.toString();
}

async function pendingRunId(): Promise<string> {
  const store = await openStore(fixture.path, { readonly: true });
  try {
    const experiment = await store.getExperiment(fixture.pendingId);
    return experiment?.records[0]?.run_id ?? '';
  } finally {
    await store.close();
  }
}

describe('harnesseval view (built CLI)', () => {
  it('prints a 127.0.0.1 URL with a token', () => {
    expect(viewer.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(viewer.token.length).toBeGreaterThanOrEqual(32);
  });

  it('serves every screen with a strict CSP and no inline script', async () => {
    for (const path of screens()) {
      const answer = await send(viewer.origin + path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
      expect(answer.headers['content-security-policy']).not.toContain('unsafe-eval');
      expect(answer.headers['x-frame-options']).toBe('DENY');
      const scripts = answer.body.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts, path).toEqual(expect.arrayContaining(['<script src="/assets/viewer.js">']));
      for (const tag of scripts)
        expect(tag === '<script src="/assets/viewer.js">' || tag.includes('application/json'), tag).toBe(
          true,
        );
    }
  });

  it('escapes <script>, </script>, onerror= and javascript: in agent output and names', async () => {
    const pages = [
      `/experiments/${fixture.baselineId}`,
      `/experiments/${fixture.candidateId}`,
      `/experiments/${fixture.pendingId}/grade`,
      '/',
    ];
    for (const path of pages) {
      const { body } = await send(viewer.origin + path);
      expect(body, path).not.toContain('<script>window');
      expect(body, path).not.toContain('<img src=x');
      expect(body, path).not.toMatch(/href="javascript:/i);
    }
    const grade = await send(`${viewer.origin}/experiments/${fixture.pendingId}/grade`);
    expect(grade.body).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    expect(grade.body).toContain('onerror=&quot;window.__pwned=1&quot;');
    const list = await send(`${viewer.origin}/`);
    expect(list.body).toContain('Demo &lt;script&gt;');
  });

  it('compares with paired statistics and links each flipped task to both traces', async () => {
    const { body } = await send(
      `${viewer.origin}/compare?id=${fixture.baselineId}&id=${fixture.candidateId}`,
    );
    expect(body).toContain('success_rate');
    expect(body).toContain('data-flipped="beta"');
    expect(body).toContain(`href="/experiments/${fixture.baselineId}?task=beta&amp;open=0"`);
    expect(body).toContain(`href="/experiments/${fixture.candidateId}?task=beta&amp;open=0"`);
  });

  it('filters the list by the query string, and refuses a bad filter with 400', async () => {
    const other = await send(`${viewer.origin}/?harness=noop`);
    expect(other.body).toContain(fixture.pendingId);
    expect(other.body).not.toContain(`/experiments/${fixture.baselineId}"`);
    const bad = await send(`${viewer.origin}/?status=done`);
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('status: expected one of running, completed, interrupted, failed');
  });

  it('answers 404 for an unknown experiment or path, 405 for other methods, 421 for a foreign Host', async () => {
    expect((await send(`${viewer.origin}/experiments/nope`)).status).toBe(404);
    expect((await send(`${viewer.origin}/etc/passwd`)).status).toBe(404);
    expect((await send(`${viewer.origin}/assets/../../etc/passwd`)).status).toBe(404);
    expect((await send(`${viewer.origin}/`, { method: 'DELETE' })).status).toBe(405);
    expect((await send(`${viewer.origin}/`, { headers: { Host: 'evil.example' } })).status).toBe(421);
  });

  it('trades the printed token for a cookie, and refuses a wrong one', async () => {
    expect((await send(`${viewer.origin}/?token=wrong`)).status).toBe(403);
    const answer = await send(viewer.url);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/');
    expect(String(answer.headers['set-cookie'])).toContain('HttpOnly; SameSite=Strict');
    const cookie = String(answer.headers['set-cookie']).split(';')[0] ?? '';
    const withCookie = await send(`${viewer.origin}/experiments/${fixture.pendingId}/grade`, {
      headers: { Cookie: cookie },
    });
    expect(withCookie.body).toContain(`name="token" value="${viewer.token}"`);
    const without = await send(`${viewer.origin}/experiments/${fixture.pendingId}/grade`);
    expect(without.body).not.toContain(viewer.token);
    expect(without.body).toContain('cannot save grades');
  });

  it('refuses a grade without the token or from another origin, and stores one with both', async () => {
    const runId = await pendingRunId();
    const post = (token: string | undefined, origin: string) =>
      send(`${viewer.origin}/experiments/${fixture.pendingId}/grade`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
        body: gradeForm(token).replace('run_id=', `run_id=${encodeURIComponent(runId)}`),
      });
    const noToken = await post(undefined, viewer.origin);
    expect(noToken.status).toBe(403);
    const crossOrigin = await post(viewer.token, 'http://evil.example');
    expect(crossOrigin.status).toBe(403);
    const before = await openStore(fixture.path, { readonly: true });
    expect(
      (await before.getExperiment(fixture.pendingId))?.records[0]?.criteria.some(
        (c) => c.status === 'pending',
      ),
    ).toBe(true);
    await before.close();

    const saved = await post(viewer.token, viewer.origin);
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe(`/experiments/${fixture.pendingId}/grade?saved=ac-02`);
    const store = await openStore(fixture.path, { readonly: true });
    const stored = await store.getExperiment(fixture.pendingId);
    await store.close();
    const criterion = stored?.records[0]?.criteria.find((c) => c.id === 'ac-02');
    expect(criterion?.grades.map((g) => [g.dimension, g.level, g.grader, g.grader_kind])).toEqual([
      ['code_quality', 4, 'Ann', 'human'],
      ['convention_adherence', 3, 'Ann', 'human'],
    ]);
    expect(stored?.outcome).toBe('pass');
    // The same numbers as `harnesseval grade` (test/integration/grade-cli.test.ts).
    expect(stored?.scores['overall']).toBeCloseTo(0.6 + 0.4 * (0.6 + 0.4 * (2 / 3)), 10);
    const page = await send(`${viewer.origin}/experiments/${fixture.pendingId}/grade`);
    expect(page.body).toContain('0 criteria wait for a grade');
  });

  it('fails with a message and a non-zero exit when the store does not exist', async () => {
    const result = await cli(['view', '--store', join(dir, 'missing.db'), '--port', '0']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/^harnesseval: .*missing\.db/m);
    expect(result.stderr).not.toContain('    at ');
  });
});
