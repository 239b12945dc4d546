import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The local PNGs a Markdown file shows (`![alt](path.png)`), resolved against its folder. */
function imagesOf(doc: string): string[] {
  const text = readFileSync(join(ROOT, doc), 'utf8');
  return [...text.matchAll(/!\[[^\]]*\]\(([^)\s]+\.png)\)/g)].map((m) =>
    resolve(ROOT, dirname(doc), m[1] ?? ''),
  );
}

describe('the screenshots the docs show (npm run screenshots)', () => {
  it.each(['README.md', 'docs/viewer.md'])('%s shows only committed, small PNGs', (doc) => {
    const images = imagesOf(doc);
    expect(images.length).toBeGreaterThanOrEqual(doc === 'README.md' ? 2 : 7);
    for (const image of images) {
      const bytes = readFileSync(image);
      expect(bytes.subarray(0, 8).equals(PNG), image).toBe(true);
      expect(statSync(image).size, image).toBeLessThan(400_000);
    }
  });
});
