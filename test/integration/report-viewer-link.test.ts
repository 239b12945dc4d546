import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChartStore, chartStore } from '../helpers/chart-experiments.ts';
import { cli } from '../helpers/run-cli.ts';
import { startViewerCli } from '../helpers/viewer-store.ts';

/** `report -o report.html` links into a running viewer: found from its state file, or `--viewer`. */
describe('the HTML report links into the viewer', () => {
  let dir: string;
  let fixture: ChartStore;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'he-report-viewer-'));
    fixture = await chartStore(dir);
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const report = async (name: string, extra: readonly string[] = []) => {
    const out = join(dir, name);
    const result = await cli(['report', 'exp-v10', '--store', fixture.path, '-o', out, ...extra]);
    return { result, html: result.status === 0 ? await readFile(out, 'utf8') : '' };
  };

  it('finds the viewer running on the store, never writes its token, and stops linking once it stops', async () => {
    const viewer = await startViewerCli(fixture.path);
    const stateFile = `${fixture.path}.viewer.json`;
    try {
      const state = JSON.parse(await readFile(stateFile, 'utf8'));
      expect(state).toMatchObject({ origin: viewer.origin, pid: viewer.cli.child.pid });
      expect(JSON.stringify(state)).not.toContain(viewer.token);
      const { result, html } = await report('running.html');
      expect(result.status, result.stderr).toBe(0);
      expect(html).toContain(`href="${viewer.origin}/experiments/exp-v10"`);
      expect(html).toContain(`href="${viewer.origin}/timeline?harness=lineage&amp;suite=known-suite"`);
      expect(html).not.toContain(viewer.token);
    } finally {
      await viewer.stop();
    }
    expect(existsSync(stateFile)).toBe(false);
    const { html } = await report('stopped.html');
    expect(html).not.toContain('data-viewer');
  }, 60_000);

  it('takes --viewer for a 127.0.0.1 address only, dropping its path and query', async () => {
    const { result, html } = await report('flag.html', ['--viewer', 'http://127.0.0.1:4999/?token=secret']);
    expect(result.status, result.stderr).toBe(0);
    expect(html).toContain('href="http://127.0.0.1:4999/experiments/exp-v10"');
    expect(html).not.toContain('secret');
    for (const bad of ['http://example.com:4999', 'https://127.0.0.1:4999', 'not a url']) {
      const refused = await report('bad.html', ['--viewer', bad]);
      expect(refused.result.status, bad).toBe(2);
      expect(refused.result.stderr).toContain(
        "--viewer: expected the viewer's http://127.0.0.1:PORT address",
      );
      expect(refused.result.stderr).not.toContain('    at ');
    }
  }, 60_000);
});
