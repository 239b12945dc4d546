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
