import { parseHTML } from 'linkedom';
import { renderDashboard } from '../../src/dashboard.ts';
import type { DashboardData, Order } from '../../src/types.ts';

export const orders: Order[] = [
  { id: 'o1', customer: 'bob', totalCents: 4500, status: 'paid', createdAt: '2026-03-02T09:00:00Z' },
  { id: 'o2', customer: 'Alice', totalCents: 123450, status: 'open', createdAt: '2026-03-05T23:30:00Z' },
  { id: 'o3', customer: 'Carol', totalCents: 999, status: 'refunded', createdAt: '2026-03-01T12:00:00Z' },
  { id: 'o4', customer: 'dave', totalCents: 20000, status: 'open', createdAt: '2026-03-04T08:15:00Z' },
];

export function render(data: Partial<DashboardData> = {}) {
  const { document, window } = parseHTML(
    '<!doctype html><html><body><main id="app"><p>old</p></main></body></html>',
  );
  const root = document.querySelector('#app');
  if (!root) throw new Error('no #app');
  renderDashboard(root, { title: 'Orders', orders, ...data });
  return { document, window, root };
}

export function rowIds(root: Element): (string | null)[] {
  return [...root.querySelectorAll('tbody tr')].map((tr) => tr.getAttribute('data-order-id'));
}

export function click(root: Element, key: string): void {
  const button = root.querySelector(`th[data-sort-key="${key}"] button`);
  if (!(button && 'click' in button && typeof button.click === 'function'))
    throw new Error(`no button for ${key}`);
  button.click();
}
