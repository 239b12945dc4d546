export type OrderStatus = 'open' | 'paid' | 'refunded';

export interface Order {
  id: string;
  /** User-entered; render as text only. */
  customer: string;
  totalCents: number;
  status: OrderStatus;
  /** ISO 8601 timestamp. */
  createdAt: string;
}

export interface DashboardData {
  title: string;
  orders: Order[];
}
