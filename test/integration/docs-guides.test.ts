import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { docBlocks } from '../helpers/doc-commands.ts';
import { docCommandsSuite } from '../helpers/doc-commands-suite.ts';
import { ROOT } from '../helpers/run-cli.ts';

// Every other page of docs/ with shell blocks (a new page is picked up by itself): its commands
// run in a scratch copy and are held to the output it shows; README.md and getting-started.md
// have their own files so the three run side by side.
const OWN_FILE = new Set(['getting-started.md']);
const pages = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md') && !OWN_FILE.has(f))
  .sort()
  .map((f) => `docs/${f}`)
  .filter((doc) => docBlocks(doc, readFileSync(join(ROOT, doc), 'utf8')).length > 0);

for (const doc of pages) docCommandsSuite(doc);
