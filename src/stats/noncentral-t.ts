import { logGamma, normalCdf, regularizedIncompleteBeta } from './distributions.ts';

/**
 * The noncentral t distribution, for the power of a t test: under an alternative with true
 * standardized effect d, the paired t statistic over n tasks is noncentral t with n - 1 degrees
 * of freedom and noncentrality d·√n. Algorithm AS 243 (R. V. Lenth 1989, "Cumulative
 * distribution function of the non-central t distribution", Applied Statistics 38:185–189): a
 * series in incomplete beta functions with a bound on the truncation error.
 */

const LOG_SQRT_PI = 0.5 * Math.log(Math.PI);
const SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);
const MAX_TERMS = 2000;
const MAX_ERROR = 1e-13;

/** P(T ≤ t) for T noncentral t with `df` degrees of freedom and noncentrality `delta`. */
export function noncentralTCdf(t: number, df: number, delta: number): number {
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be > 0, got ${df}`);
  if (Number.isNaN(t) || Number.isNaN(delta)) return Number.NaN;
  if (t === Number.POSITIVE_INFINITY) return 1;
  if (t === Number.NEGATIVE_INFINITY) return 0;
  // F(t; ν, δ) = 1 - F(-t; ν, -δ): the series below needs t ≥ 0.
  const negative = t < 0;
  const tt = negative ? -t : t;
  const del = negative ? -delta : delta;
  // Far in the tail the series starts at underflowed terms; the normal limit is exact there.
  if (Math.abs(del) > 37)
    return clamp(negative ? 1 - tailApproximation(tt, df, del) : tailApproximation(tt, df, del));
  const x = (tt * tt) / (tt * tt + df);
  let total = 0;
  if (x > 0) {
    const lambda = del * del;
    let p = 0.5 * Math.exp(-0.5 * lambda);
    let q = SQRT_2_OVER_PI * p * del;
    let s = 0.5 - p;
    let a = 0.5;
    const b = 0.5 * df;
    const rxb = (1 - x) ** b;
    const logBeta = LOG_SQRT_PI + logGamma(b) - logGamma(0.5 + b);
    let xodd = regularizedIncompleteBeta(x, a, b);
    let godd = 2 * rxb * Math.exp(a * Math.log(x) - logBeta);
    let xeven = 1 - rxb;
    let geven = b * x * rxb;
    total = p * xodd + q * xeven;
    for (let en = 1; en <= MAX_TERMS; en++) {
      a += 1;
      xodd -= godd;
      xeven -= geven;
      godd *= (x * (a + b - 1)) / a;
      geven *= (x * (a + b - 0.5)) / (a + 0.5);
      p *= lambda / (2 * en);
      q *= lambda / (2 * en + 1);
      s -= p;
      total += p * xodd + q * xeven;
      if (2 * s * (xodd - godd) <= MAX_ERROR) break;
    }
  }
  total += normalCdf(-del);
  return clamp(negative ? 1 - total : total);
}

/** For |δ| > 37: T ≈ (Z + δ)/√(χ²/ν) is far from 0, where a normal approximation of T is exact to double precision. */
function tailApproximation(t: number, df: number, delta: number): number {
  // Abramowitz & Stegun 26.7.10: P(T ≤ t) ≈ Φ((t(1 - 1/(4ν)) - δ) / √(1 + t²/(2ν))).
  return normalCdf((t * (1 - 1 / (4 * df)) - delta) / Math.sqrt(1 + (t * t) / (2 * df)));
}

function clamp(p: number): number {
  return Math.min(1, Math.max(0, p));
}
