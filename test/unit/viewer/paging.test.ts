import { describe, expect, it } from 'vitest';
import { pageOf, pager } from '../../../src/viewer/pages/paging.ts';

const items = Array.from({ length: 25 }, (_, i) => i);
const q = (s: string) => new URLSearchParams(s);

describe('pageOf', () => {
  it('slices the asked page and clamps pages outside the range', () => {
    expect(pageOf(items, q(''), 10)).toMatchObject({
      number: 1,
      count: 3,
      total: 25,
      items: items.slice(0, 10),
    });
    expect(pageOf(items, q('page=3'), 10).items).toEqual([20, 21, 22, 23, 24]);
    expect(pageOf(items, q('page=99'), 10).number).toBe(3);
    expect(pageOf(items, q('page=-4'), 10).number).toBe(1);
    expect(pageOf(items, q('page=abc'), 10).number).toBe(1);
    expect(pageOf([], q(''), 10)).toMatchObject({ number: 1, count: 1, items: [] });
  });
});

describe('pager', () => {
  it('links the neighbours, keeping the rest of the query escaped', () => {
    const html = pager(pageOf(items, q('page=2&suite=a"b'), 10), q('page=2&suite=a"b'), '/');
    expect(html).toContain('href="/?page=1&amp;suite=a%22b"');
    expect(html).toContain('href="/?page=3&amp;suite=a%22b"');
    expect(html).toContain('page 2 of 3 (25)');
    expect(pager(pageOf([1], q(''), 10), q(''), '/')).toBe('');
  });
});
