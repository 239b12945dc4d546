import type { ProductInput } from './product-store.ts';

export interface FieldError {
  field: string;
  message: string;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

const FIELDS = new Set(['name', 'priceCents', 'inStock']);
const MAX_NAME_LENGTH = 100;

/** Checks a POST body (`partial: false`) or a PATCH body (`partial: true`) against the product model. */
export function validateProduct(body: unknown, options: { partial: true }): Validated<Partial<ProductInput>>;
export function validateProduct(body: unknown, options: { partial: false }): Validated<ProductInput>;
export function validateProduct(
  body: unknown,
  { partial }: { partial: boolean },
): Validated<Partial<ProductInput>> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: [{ field: '', message: 'expected a JSON object' }] };
  }
  const fields = new Map(Object.entries(body));
  const errors: FieldError[] = [];
  const value: Partial<ProductInput> = {};

  for (const field of fields.keys()) {
    if (!FIELDS.has(field)) errors.push({ field, message: 'unknown field' });
  }

  const name = fields.get('name');
  if (typeof name === 'string' && name.trim().length >= 1 && name.trim().length <= MAX_NAME_LENGTH) {
    value.name = name.trim();
  } else if (name !== undefined || !partial) {
    errors.push({ field: 'name', message: `expected a string of 1 to ${MAX_NAME_LENGTH} characters` });
  }

  const priceCents = fields.get('priceCents');
  if (typeof priceCents === 'number' && Number.isInteger(priceCents) && priceCents >= 0) {
    value.priceCents = priceCents;
  } else if (priceCents !== undefined || !partial) {
    errors.push({ field: 'priceCents', message: 'expected a non-negative integer' });
  }

  const inStock = fields.get('inStock');
  if (typeof inStock === 'boolean') value.inStock = inStock;
  else if (inStock !== undefined) errors.push({ field: 'inStock', message: 'expected a boolean' });
  else if (!partial) value.inStock = true;

  return errors.length > 0 ? { ok: false, errors } : { ok: true, value };
}
