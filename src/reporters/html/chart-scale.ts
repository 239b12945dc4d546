/** Maps a data domain onto a pixel range. A zero-width domain is widened so nothing divides by 0. */
export interface LinearScale {
  readonly domain: readonly [number, number];
  (value: number): number;
}

export function linearScale(
  domain: readonly [number, number],
  range: readonly [number, number],
): LinearScale {
  let [d0, d1] = domain;
  if (d0 === d1) {
    const pad = d0 === 0 ? 1 : Math.abs(d0) * 0.1;
    d0 -= pad;
    d1 += pad;
  }
  const [r0, r1] = range;
  const scale = (value: number): number => r0 + ((value - d0) / (d1 - d0)) * (r1 - r0);
  return Object.assign(scale, { domain: [d0, d1] as const });
}

/** About `count` round tick values covering [min, max] (steps of 1, 2 or 5 times a power of ten). */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min === max) return [min];
  const raw = (max - min) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let t = Math.ceil(min / step) * step; t <= max + step * 1e-9; t += step) {
    ticks.push(Number(t.toPrecision(12)));
  }
  return ticks;
}

/** Rounds the domain outwards to whole ticks so bars and points do not touch the frame. */
export function niceDomain(min: number, max: number, count = 5): [number, number] {
  if (min === max) return [min, max];
  const ticks = niceTicks(min, max, count);
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : max - min;
  return [Math.floor(min / step) * step, Math.ceil(max / step) * step];
}

/** Pixel coordinates are written with two decimals at most, to keep the file small. */
export function px(value: number): string {
  return String(Math.round(value * 100) / 100);
}
