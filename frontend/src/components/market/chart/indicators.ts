/**
 * Chart studies computed from closing prices: moving averages, their crosses and MACD.
 * Chart values are plotted as numbers; these never feed an order.
 */

/** Simple moving average over `period` bars; null until enough bars exist. */
export function movingAverage(closes: readonly number[], period: number): (number | null)[] {
  const out: (number | null)[] = [];
  let sum = 0;
  for (let i = 0; i < closes.length; i += 1) {
    sum += closes[i]!;
    if (i >= period) sum -= closes[i - period]!;
    out.push(i >= period - 1 ? sum / period : null);
  }
  return out;
}

export function exponentialAverage(values: readonly number[], period: number): number[] {
  const k = 2 / (period + 1);
  const out: number[] = [];
  values.forEach((v, i) => out.push(i === 0 ? v : v * k + out[i - 1]! * (1 - k)));
  return out;
}

export interface Macd {
  dif: number[];
  dea: number[];
  /** (DIF − DEA) × 2, the histogram. */
  macd: number[];
}

export function macd(closes: readonly number[], fast = 12, slow = 26, signal = 9): Macd {
  const fastEma = exponentialAverage(closes, fast);
  const slowEma = exponentialAverage(closes, slow);
  const dif = closes.map((_, i) => fastEma[i]! - slowEma[i]!);
  const dea = exponentialAverage(dif, signal);
  return { dif, dea, macd: dif.map((d, i) => (d - dea[i]!) * 2) };
}

export interface Cross {
  index: number;
  /** golden: the fast average crosses above the slow one; death: below. */
  kind: 'golden' | 'death';
}

/** Bars where the fast average crosses the slow one. */
export function crosses(fastLine: readonly (number | null)[], slowLine: readonly (number | null)[]): Cross[] {
  const out: Cross[] = [];
  for (let i = 1; i < fastLine.length; i += 1) {
    const f0 = fastLine[i - 1];
    const s0 = slowLine[i - 1];
    const f1 = fastLine[i];
    const s1 = slowLine[i];
    if (f0 == null || s0 == null || f1 == null || s1 == null) continue;
    if (f0 <= s0 && f1 > s1) out.push({ index: i, kind: 'golden' });
    else if (f0 >= s0 && f1 < s1) out.push({ index: i, kind: 'death' });
  }
  return out;
}
