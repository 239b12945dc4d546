export type Region = 'US' | 'EU';

export interface OrderItem {
  sku: string;
  quantity: number;
}

export interface QuoteLine extends OrderItem {
  unitCents: number;
  totalCents: number;
}

export interface Quote {
  lines: QuoteLine[];
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
}

export interface RouteResult {
  status: number;
  body: unknown;
}
