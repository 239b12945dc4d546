import { type LinearScale, linearScale, niceDomain, niceTicks, px } from './chart-scale.ts';
import { escapeHtml } from './escape.ts';
import { formatNumber } from './format.ts';

/** Charts are drawn on the server as inline SVG: no script, no library, readable without JS. */
export interface ChartOptions {
  /** Accessible name of the chart (also its tooltip). */
  readonly title: string;
  readonly xLabel?: string;
  readonly yLabel?: string;
  readonly width?: number;
  readonly height?: number;
  readonly formatX?: (value: number) => string;
  readonly formatY?: (value: number) => string;
  /** Draw the title inside the chart, visible (not only as its accessible name). */
  readonly showTitle?: boolean;
  /** The x ticks to label (e.g. the integer positions of categories), instead of round numbers. */
  readonly xTicks?: readonly number[];
  /** A fixed y range, e.g. [0, 1] for a rate; the data's (rounded) range otherwise. */
  readonly yDomain?: readonly [number, number];
}

export interface HistogramOptions extends ChartOptions {
  readonly bins?: number;
  /** Fixed x range, e.g. [0, 1] for scores; the data's range otherwise. */
  readonly domain?: readonly [number, number];
}

export interface ScatterPoint {
  readonly x: number;
  readonly y: number;
  /** Shown on hover (escaped). */
  readonly label?: string;
}

export interface LinePoint {
  readonly x: number;
  /** null leaves a gap in the line. */
  readonly y: number | null;
  readonly label?: string;
  /** The point is a link (a timeline's version opens its experiment). */
  readonly href?: string;
  /** The segment from the previous point to this one is a link (the step's comparison). */
  readonly stepHref?: string;
}

export interface LineSeries {
  readonly name: string;
  readonly points: readonly LinePoint[];
}

const MARGIN = { top: 14, right: 16, bottom: 42, left: 60 };
/** Room for a visible title above the plot. */
const TITLE_HEIGHT = 18;

interface Frame {
  readonly width: number;
  readonly height: number;
  readonly x: LinearScale;
  readonly y: LinearScale;
}

function top(options: ChartOptions): number {
  return MARGIN.top + (options.showTitle ? TITLE_HEIGHT : 0);
}

function frame(options: ChartOptions, xDomain: [number, number], yDomain: [number, number]): Frame {
  const width = options.width ?? 480;
  const height = options.height ?? 240;
  return {
    width,
    height,
    x: linearScale(xDomain, [MARGIN.left, width - MARGIN.right]),
    y: linearScale(yDomain, [height - MARGIN.bottom, top(options)]),
  };
}

function svg(options: ChartOptions, f: Pick<Frame, 'width' | 'height'>, body: string): string {
  const title = escapeHtml(options.title);
  const visible = options.showTitle
    ? `<text class="chart-title" x="${MARGIN.left}" y="${MARGIN.top + 2}">${title}</text>`
    : '';
  return (
    `<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${f.width} ${f.height}" ` +
    `width="${f.width}" height="${f.height}" role="img" aria-label="${title}"><title>${title}</title>${visible}${body}</svg>`
  );
}

function axes(options: ChartOptions, f: Frame): string {
  const fx = options.formatX ?? formatNumber;
  const fy = options.formatY ?? formatNumber;
  const [x0, x1] = f.x.domain;
  const [y0, y1] = f.y.domain;
  const bottom = f.height - MARGIN.bottom;
  const parts = [
    `<path class="axis" d="M${MARGIN.left} ${top(options)}V${bottom}H${f.width - MARGIN.right}"/>`,
  ];
  for (const t of options.xTicks ?? niceTicks(x0, x1, 5)) {
    parts.push(
      `<text class="tick" x="${px(f.x(t))}" y="${bottom + 14}" text-anchor="middle">${escapeHtml(fx(t))}</text>`,
    );
  }
  for (const t of niceTicks(y0, y1, 4)) {
    const y = px(f.y(t));
    parts.push(`<path class="grid" d="M${MARGIN.left} ${y}H${f.width - MARGIN.right}"/>`);
    parts.push(
      `<text class="tick" x="${MARGIN.left - 6}" y="${y}" dy="0.32em" text-anchor="end">${escapeHtml(fy(t))}</text>`,
    );
  }
  if (options.xLabel) {
    parts.push(
      `<text class="label" x="${px((MARGIN.left + f.width - MARGIN.right) / 2)}" y="${f.height - 6}" text-anchor="middle">${escapeHtml(options.xLabel)}</text>`,
    );
  }
  if (options.yLabel) {
    const cy = px((top(options) + bottom) / 2);
    parts.push(
      `<text class="label" transform="translate(12 ${cy}) rotate(-90)" text-anchor="middle">${escapeHtml(options.yLabel)}</text>`,
    );
  }
  return parts.join('');
}

/** A placeholder with the same size as the chart, so an empty run still lays out. */
export function emptyChart(options: ChartOptions, message = 'no data'): string {
  const f = { width: options.width ?? 480, height: options.height ?? 240 };
  return svg(
    options,
    f,
    `<rect class="empty" x="0.5" y="0.5" width="${f.width - 1}" height="${f.height - 1}"/>` +
      `<text class="label" x="${f.width / 2}" y="${f.height / 2}" text-anchor="middle">${escapeHtml(message)}</text>`,
  );
}

/** Counts of `values` in equal-width bins, drawn as bars. Non-finite values are left out. */
export function histogram(values: readonly number[], options: HistogramOptions): string {
  const data = values.filter(Number.isFinite);
  if (data.length === 0) return emptyChart(options);
  const bins = Math.max(1, options.bins ?? 10);
  const [lo, hi] = options.domain ?? [Math.min(...data), Math.max(...data)];
  const width = hi > lo ? (hi - lo) / bins : 1;
  const counts = new Array<number>(bins).fill(0);
  for (const v of data) {
    const i = Math.min(bins - 1, Math.max(0, Math.floor((v - lo) / width)));
    counts[i] = (counts[i] ?? 0) + 1;
  }
  const f = frame(options, [lo, hi > lo ? hi : lo + width], [0, Math.max(...counts)]);
  const fx = options.formatX ?? formatNumber;
  const bars = counts.map((count, i) => {
    if (count === 0) return '';
    const left = f.x(lo + i * width);
    const right = f.x(lo + (i + 1) * width);
    const top = f.y(count);
    const label = `${fx(lo + i * width)} to ${fx(lo + (i + 1) * width)}: ${count}`;
    return (
      `<rect class="bar" x="${px(left + 1)}" y="${px(top)}" width="${px(Math.max(1, right - left - 2))}" ` +
      `height="${px(f.y(0) - top)}"><title>${escapeHtml(label)}</title></rect>`
    );
  });
  return svg(options, f, axes(options, f) + bars.join(''));
}

/** One dot per point, e.g. cost against score per trial. */
export function scatter(points: readonly ScatterPoint[], options: ChartOptions): string {
  const data = points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  if (data.length === 0) return emptyChart(options);
  const xs = data.map((p) => p.x);
  const ys = data.map((p) => p.y);
  const f = frame(
    options,
    niceDomain(Math.min(0, ...xs), Math.max(...xs)),
    niceDomain(Math.min(0, ...ys), Math.max(...ys)),
  );
  const dots = data.map((p) => {
    const title = p.label === undefined ? '' : `<title>${escapeHtml(p.label)}</title>`;
    return `<circle class="point" cx="${px(f.x(p.x))}" cy="${px(f.y(p.y))}" r="4">${title}</circle>`;
  });
  return svg(options, f, axes(options, f) + dots.join(''));
}

/**
 * The rounded range of the values; a flat series (every value the same) gets a range around its
 * value on its own side of zero, not -1 to 1.
 */
function flatDomain(min: number, max: number): [number, number] {
  if (min !== max) return niceDomain(min, max);
  if (min === 0) return [0, 1];
  const pad = Math.abs(min) * 0.5;
  return min > 0
    ? niceDomain(Math.max(0, min - pad), min + pad)
    : niceDomain(min - pad, Math.min(0, min + pad));
}

/** Lines over a shared x axis (timelines: x is a version's position, labelled by `formatX` at `xTicks`). */
export function lineChart(series: readonly LineSeries[], options: ChartOptions): string {
  const points = series.flatMap((s) => s.points).filter((p): p is LinePoint & { y: number } => p.y !== null);
  if (points.length === 0) return emptyChart(options);
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const yDomain: [number, number] = options.yDomain
    ? [Math.min(options.yDomain[0], ...ys), Math.max(options.yDomain[1], ...ys)]
    : flatDomain(Math.min(...ys), Math.max(...ys));
  const f = frame(options, [Math.min(...xs), Math.max(...xs)], yDomain);
  const body = series.map((s, i) => {
    let d = '';
    let pen = 'M';
    let previous: string | undefined;
    const dots: string[] = [];
    const steps: string[] = [];
    for (const p of s.points) {
      if (p.y === null) {
        pen = 'M';
        previous = undefined;
        continue;
      }
      const at = `${px(f.x(p.x))} ${px(f.y(p.y))}`;
      d += `${pen}${at}`;
      pen = 'L';
      const title = escapeHtml(`${s.name}: ${p.label ?? formatNumber(p.y)}`);
      if (p.stepHref !== undefined && previous !== undefined)
        steps.push(
          `<a href="${escapeHtml(p.stepHref)}" class="step"><path class="step-link" d="M${previous}L${at}"/></a>`,
        );
      previous = at;
      const dot = `<circle class="point" cx="${px(f.x(p.x))}" cy="${px(f.y(p.y))}" r="${p.href === undefined ? 3 : 5}"><title>${title}</title></circle>`;
      dots.push(p.href === undefined ? dot : `<a href="${escapeHtml(p.href)}" class="point-link">${dot}</a>`);
    }
    return `<g class="series series-${i % 6}"><path class="line" d="${d}"/>${steps.join('')}${dots.join('')}</g>`;
  });
  const legend = series.map(
    (s, i) =>
      `<text class="legend series-${i % 6}" x="${MARGIN.left + 8}" y="${MARGIN.top + 12 + i * 14}">${escapeHtml(s.name)}</text>`,
  );
  return svg(options, f, axes(options, f) + body.join('') + (series.length > 1 ? legend.join('') : ''));
}
