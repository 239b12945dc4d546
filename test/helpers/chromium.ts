import { existsSync } from 'node:fs';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { describe, it } from 'vitest';

/**
 * Debian's Chromium for the browser tests (`.ci/run` installs it; nothing is downloaded). The
 * variable lets a machine with Chromium elsewhere run them, and tests the missing-browser path.
 */
export const CHROMIUM = process.env['HARNESSEVAL_CHROMIUM'] ?? '/usr/bin/chromium';

/** Flags for a headless run on a closed network as root (see the machine notes). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

const MISSING = `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium) to run the browser tests`;

/**
 * `describe(title, body)` when Chromium is there. Without it the suite fails in CI, and elsewhere
 * is skipped loudly: a warning on stderr and the reason in the skipped suite's name.
 */
export function describeInChromium(title: string, body: () => void): void {
  if (existsSync(CHROMIUM)) {
    describe(title, body);
    return;
  }
  if (process.env['CI']) {
    describe(title, () => {
      it('needs Chromium in CI', () => {
        throw new Error(MISSING);
      });
    });
    return;
  }
  console.warn(`skipping "${title}": ${MISSING}`);
  describe.skip(`${title} (skipped: ${MISSING})`, () => {
    it('runs in a browser', () => {});
  });
}

/** A headless Chromium page that records console errors and warnings and page errors in `problems`. */
export async function chromiumPage(
  profileDir: string,
  viewport: { width: number; height: number } = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { context, page, problems };
}
