import { formatCents, formatDay } from './format.ts';
import type { DashboardData, Order } from './types.ts';

type SortKey = 'customer' | 'total' | 'status' | 'createdAt';
type Direction = 'ascending' | 'descending';

const COLUMNS: { key: SortKey; label: string; cell: (order: Order) => string }[] = [
  { key: 'customer', label: 'Customer', cell: (order) => order.customer },
  { key: 'total', label: 'Total', cell: (order) => formatCents(order.totalCents) },
  { key: 'status', label: 'Status', cell: (order) => order.status },
  { key: 'createdAt', label: 'Created', cell: (order) => formatDay(order.createdAt) },
];

const COMPARE: Record<SortKey, (a: Order, b: Order) => number> = {
  customer: (a, b) => a.customer.localeCompare(b.customer, 'en', { sensitivity: 'base' }),
  total: (a, b) => a.totalCents - b.totalCents,
  status: (a, b) => a.status.localeCompare(b.status, 'en'),
  createdAt: (a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt),
};

/** Creates an element whose content is text only: user data never becomes markup. */
function element(document: Document, tag: string, text?: string): HTMLElement {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
}

function renderCards(document: Document, orders: Order[]): HTMLElement {
  const revenue = orders.filter((o) => o.status !== 'refunded').reduce((sum, o) => sum + o.totalCents, 0);
  const cards: [key: string, label: string, value: string][] = [
    ['revenue', 'Revenue', formatCents(revenue)],
    ['orders', 'Orders', String(orders.length)],
    ['open', 'Open orders', String(orders.filter((o) => o.status === 'open').length)],
  ];
  const section = element(document, 'section');
  section.className = 'cards';
  for (const [key, label, value] of cards) {
    const card = element(document, 'article');
    card.className = 'card';
    card.dataset.card = key;
    const valueNode = element(document, 'p', value);
    valueNode.className = 'value';
    card.append(element(document, 'h2', label), valueNode);
    section.append(card);
  }
  return section;
}

function renderTable(document: Document, orders: Order[]): HTMLElement {
  const table = element(document, 'table');
  table.className = 'orders';
  const headerRow = element(document, 'tr');
  const body = element(document, 'tbody');
  const thead = element(document, 'thead');
  thead.append(headerRow);
  table.append(thead, body);

  let sort: { key: SortKey; direction: Direction } = { key: 'createdAt', direction: 'descending' };
  const headers = COLUMNS.map(({ key, label }) => {
    const th = element(document, 'th');
    th.dataset.sortKey = key;
    const button = element(document, 'button', label);
    button.setAttribute('type', 'button');
    button.addEventListener('click', () => {
      const direction = sort.key === key && sort.direction === 'ascending' ? 'descending' : 'ascending';
      sort = { key, direction };
      update();
    });
    th.append(button);
    headerRow.append(th);
    return th;
  });

  function update(): void {
    const sign = sort.direction === 'ascending' ? 1 : -1;
    const sorted = [...orders].sort((a, b) => sign * COMPARE[sort.key](a, b));
    body.replaceChildren(
      ...sorted.map((order) => {
        const row = element(document, 'tr');
        row.dataset.orderId = order.id;
        row.append(...COLUMNS.map((column) => element(document, 'td', column.cell(order))));
        return row;
      }),
    );
    for (const th of headers) {
      th.setAttribute('aria-sort', th.dataset.sortKey === sort.key ? sort.direction : 'none');
    }
  }

  update();
  return table;
}

/** Renders the orders dashboard into `root`; see REQUIREMENTS.md. */
export function renderDashboard(root: Element, data: DashboardData): void {
  const document = root.ownerDocument;
  const content: HTMLElement[] = [element(document, 'h1', data.title), renderCards(document, data.orders)];
  if (data.orders.length === 0) {
    const empty = element(document, 'p', 'No orders yet');
    empty.className = 'empty-state';
    content.push(empty);
  } else {
    content.push(renderTable(document, data.orders));
  }
  root.replaceChildren(...content);
}
