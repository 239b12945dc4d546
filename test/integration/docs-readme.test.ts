import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docCommandsSuite, docLinksSuite, sh } from '../helpers/doc-commands-suite.ts';
import { cli, ROOT } from '../helpers/run-cli.ts';

// README.md's commands, run and held to the output it shows; the repository still lints after
// them (their reports go to ignored folders); and no dead links in the docs.
docCommandsSuite('README.md', {
  name: '`npm run lint` still passes: the files the commands wrote are ignored',
  check: async (cwd) => {
    const lint = await sh('node_modules/.bin/biome check .', cwd);
    expect(lint.status, lint.output).toBe(0);
  },
});
docLinksSuite();

describe('README.md and --help agree', () => {
  it('the command table lists every command of harnesseval --help', async () => {
    const help = await cli(['--help']);
    const commands = [...help.stdout.matchAll(/^ {2}([a-z][\w-]*) /gm)]
      .map((m) => m[1] ?? '')
      .filter((c) => c !== 'help');
    expect(commands).toContain('compare');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const listed = [...readme.matchAll(/^\| `([a-z][\w-]*)/gm)].map((m) => m[1]);
    expect(commands.filter((c) => !listed.includes(c))).toEqual([]);
  });

  // One CLI start per command, all at once: on a loaded machine that exceeds the 30 s default.
  it('every --help example names experiments the way real ids look (exp-YYYYMMDD-HHMMSS-xxxx)', async () => {
    const help = await cli(['--help']);
    const commands = [...help.stdout.matchAll(/^ {2}([a-z][\w-]*) /gm)].map((m) => m[1] ?? '');
    const pages = await Promise.all(commands.map((c) => cli([c, '--help'])));
    const text = pages.map((p) => p.stdout).join('\n');
    expect(text).toContain('Examples:');
    // No ULID-like ids (`01J9Z8…`), and an exp- id is a real one or a unique prefix of one.
    expect(text).not.toMatch(/\b01[A-Z0-9]{3,}/);
    for (const [id] of text.matchAll(/\bexp-[\w-]+/g))
      expect(id).toMatch(/^exp-\d{8}(?:-\d{4,6}(?:-[0-9a-f]{4})?)?$/);
  }, 120_000);
});
