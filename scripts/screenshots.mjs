// `npm run screenshots`: the PNGs of the viewer's screens in docs/images/, from a real store.
// Runs the simulated harness lineage (examples/harness-lineage, no API key) through the built CLI
// into a temporary SQLite store, grades two of the runs through `harnesseval grade` (answers on
// stdin), starts `harnesseval view` on it and photographs each screen in Debian's headless
// Chromium via playwright-core. Takes a few minutes: not part of `npm test`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/harnesseval.js');
const OUT = join(ROOT, 'docs/images');
const CHROMIUM = process.env.HARNESSEVAL_CHROMIUM ?? '/usr/bin/chromium';
const VERSIONS = ['v0.2.0', 'v0.4.0', 'v0.5.0'];
const VIEWPORT = { width: 1280, height: 800 };

/** Runs the CLI (argv, no shell); resolves with its stdout and stderr, rejects on a non-zero exit. */
function harnesseval(args, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NO_COLOR: '1', HOME: process.env.HOME },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    // grade stops reading once nothing is pending; later writes may hit a closed pipe.
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
    child.on('close', (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`harnesseval ${args.join(' ')} exited ${code}: ${stderr}`)),
    );
  });
}

function startViewer(store) {
  const child = spawn(process.execPath, [BIN, 'view', '--store', store, '--port', '0'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (c) => {
      stdout += c;
      const match = /open (http:\S+)/.exec(stdout);
      if (match) resolve({ child, url: new URL(match[1]) });
    });
    child.on('close', (code) => reject(new Error(`view exited ${code} before printing its URL`)));
  });
}

async function main() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  const dir = await mkdtemp(join(tmpdir(), 'he-screenshots-'));
  const store = join(dir, 'harnesseval.db');
  let viewer;
  let context;
  try {
    console.log(`running ${VERSIONS.join(', ')} of the simulated lineage on product-dev…`);
    // The three runs share the store (SQLite in WAL mode takes concurrent writers) and run at once.
    const ids = await Promise.all(
      VERSIONS.map(async (version) => {
        const output = await harnesseval([
          'run',
          'suites/product-dev/suite.yaml',
          '--harness',
          `examples/harness-lineage/${version}.yaml`,
          '--store',
          store,
        ]);
        const id = /stored experiment (\S+)/.exec(output)?.[1] ?? /\((exp-[\w-]+)\)/.exec(output)?.[1];
        if (!id) throw new Error(`no experiment id in the output of ${version}: ${output}`);
        console.log(`  ${version}: ${id}`);
        return id;
      }),
    );
    const [oldest, middle, newest] = ids;
    // Grade the oldest and the newest (level 3 everywhere); the middle one stays pending for the grading screen.
    for (const id of [oldest, newest])
      await harnesseval(['grade', id, '--store', store, '--grader', 'Screenshot script'], '3\n'.repeat(400));
    viewer = await startViewer(store);
    const origin = viewer.url.origin;
    context = await chromium.launchPersistentContext(join(dir, 'profile'), {
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
      headless: true,
      viewport: VIEWPORT,
      colorScheme: 'light',
    });
    const page = await context.newPage();
    const problems = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(viewer.url.href, { waitUntil: 'load' });
    await mkdir(OUT, { recursive: true });
    const shoot = async (name, path, prepare) => {
      const response = await page.goto(origin + path, { waitUntil: 'load' });
      if (response?.status() !== 200) throw new Error(`${path}: HTTP ${response?.status()}`);
      if (prepare) await prepare();
      await page.screenshot({ path: join(OUT, `viewer-${name}.png`) });
      console.log(`  docs/images/viewer-${name}.png  ${path}`);
    };
    const compare = `/compare?id=${oldest}&id=${middle}&id=${newest}`;
    await shoot('experiments', '/');
    await shoot('experiment', `/experiments/${newest}`);
    await shoot('trace', `/experiments/${newest}?open=0`, async () => {
      await page.waitForSelector('#trace-panel:not([hidden])');
      await page.locator('#trace-panel').evaluate((panel) => panel.scrollIntoView({ block: 'start' }));
    });
    await shoot('compare', compare);
    await shoot('compare-charts', compare, () =>
      page.locator('#task-scatter').evaluate((s) => s.scrollIntoView({ block: 'start' })),
    );
    const lineage = await page
      .goto(`${origin}/timeline`)
      .then(() => page.getAttribute('#lineages a', 'href'));
    await shoot('timeline', lineage, () =>
      page.locator('#charts').evaluate((s) => s.scrollIntoView({ block: 'start' })),
    );
    await shoot('grading', `/experiments/${middle}/grade`);
    if (problems.length > 0) throw new Error(`the browser reported: ${problems.join('; ')}`);
  } finally {
    await context?.close();
    viewer?.child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`screenshots: ${error.message}`);
  process.exitCode = 1;
});
