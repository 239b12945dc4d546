import { linearScale, px } from './chart-scale.ts';
import { escapeHtml } from './escape.ts';

export interface IntervalBarInput {
  readonly value: number | null;
  readonly ci95: readonly [number, number] | null;
  /** Accessible description, e.g. "95% interval 0.61 to 0.83". */
  readonly label: string;
  /** Fixed axis; by default [0, 1] when everything lies in it, else the interval padded by 10%. */
  readonly domain?: readonly [number, number];
}

function domainOf(input: IntervalBarInput): [number, number] {
  if (input.domain) return [input.domain[0], input.domain[1]];
  const values = [input.value, ...(input.ci95 ?? [])].filter(
    (v): v is number => v !== null && Number.isFinite(v),
  );
  if (values.length === 0) return [0, 1];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  if (lo >= 0 && hi <= 1) return [0, 1];
  const pad = hi > lo ? (hi - lo) * 0.1 : Math.abs(hi) * 0.1 || 1;
  return [lo - pad, hi + pad];
}

/** A small SVG bar: the track, the 95% interval as a band and the value as a tick. */
export function intervalBar(input: IntervalBarInput, size = { width: 200, height: 24 }): string {
  const { width, height } = size;
  const x = linearScale(domainOf(input), [6, width - 6]);
  const mid = height / 2;
  const parts = [`<path class="track" d="M6 ${mid}H${width - 6}"/>`];
  if (input.ci95) {
    const [lo, hi] = input.ci95;
    const left = x(Math.min(lo, hi));
    const w = Math.max(2, Math.abs(x(hi) - x(lo)));
    parts.push(`<rect class="ci" x="${px(left)}" y="${mid - 5}" width="${px(w)}" height="10" rx="3"/>`);
  }
  if (input.value !== null && Number.isFinite(input.value)) {
    parts.push(`<rect class="value" x="${px(x(input.value) - 1.5)}" y="${mid - 9}" width="3" height="18"/>`);
  }
  const label = escapeHtml(input.label);
  return (
    `<svg class="interval" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" ` +
    `height="${height}" role="img" aria-label="${label}"><title>${label}</title>${parts.join('')}</svg>`
  );
}
