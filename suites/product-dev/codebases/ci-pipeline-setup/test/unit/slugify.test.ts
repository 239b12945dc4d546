import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slugify } from '../../src/slugify.ts';

test('slugify joins words with single dashes', () => {
  assert.equal(slugify('Hello, World!'), 'hello-world');
  assert.equal(slugify('  many   spaces  '), 'many-spaces');
});

test('slugify strips accents', () => {
  assert.equal(slugify('Crème brûlée à la carte'), 'creme-brulee-a-la-carte');
});

test('slugify cuts at maxLength without a trailing dash', () => {
  assert.equal(slugify('abc def ghi', 4), 'abc');
});
