const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** 123450 -> "$1,234.50" */
export function formatCents(cents: number): string {
  return dollars.format(cents / 100);
}

/** The UTC calendar date of an ISO timestamp, "YYYY-MM-DD". */
export function formatDay(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10);
}
