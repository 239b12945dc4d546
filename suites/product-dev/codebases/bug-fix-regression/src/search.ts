import { type Page, paginate } from './paginate.ts';

export interface Product {
  sku: string;
  name: string;
}

export interface SearchOptions {
  page?: number;
  pageSize?: number;
}

/** Products whose name contains `query` (case-insensitive), by name, one page at a time. */
export function searchProducts(
  catalog: readonly Product[],
  query: string,
  options: SearchOptions = {},
): Page<Product> {
  const needle = query.trim().toLowerCase();
  const matches = catalog
    .filter((product) => product.name.toLowerCase().includes(needle))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return paginate(matches, options.page ?? 1, options.pageSize ?? 10);
}
