import { escapeHtml } from '../../reporters/html/index.ts';

export interface Page<T> {
  readonly items: readonly T[];
  /** 1-based. */
  readonly number: number;
  readonly count: number;
  readonly total: number;
}

/** The `page` query parameter's slice of `items` (a page past the end shows the last one). */
export function pageOf<T>(items: readonly T[], query: URLSearchParams, size: number): Page<T> {
  const count = Math.max(1, Math.ceil(items.length / size));
  const asked = Number.parseInt(query.get('page') ?? '1', 10);
  const number = Number.isFinite(asked) ? Math.min(Math.max(asked, 1), count) : 1;
  return { items: items.slice((number - 1) * size, number * size), number, count, total: items.length };
}

/** Previous/next links that keep the rest of the query string. */
export function pager(page: Page<unknown>, query: URLSearchParams, path: string): string {
  if (page.count <= 1) return '';
  const link = (n: number, text: string): string => {
    const params = new URLSearchParams(query);
    params.set('page', String(n));
    return `<a href="${escapeHtml(`${path}?${params.toString()}`)}">${text}</a>`;
  };
  return (
    '<p class="pager">' +
    (page.number > 1 ? `${link(page.number - 1, '← previous')} · ` : '') +
    `page ${page.number} of ${page.count} (${page.total})` +
    (page.number < page.count ? ` · ${link(page.number + 1, 'next →')}` : '') +
    '</p>'
  );
}
