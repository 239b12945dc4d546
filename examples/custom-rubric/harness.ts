import type { Harness } from 'harnesseval';

/** A stand-in harness that always writes the same release notes (no model call). */
export const releaseNotesHarness: Harness = {
  name: 'release-notes-writer',
  run() {
    return [
      '## Breaking',
      '- `connect()` now returns a Promise; add `await` where you call it.',
      '## Features',
      '- New option `timeoutMs`.',
      '## Fixes',
      '- Reconnects keep queued messages.',
    ].join('\n');
  },
};
