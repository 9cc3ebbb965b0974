import type { Decimal } from '../types';

function toNumber(value: Decimal | null | undefined): number {
  const n = typeof value === 'number' ? value : Number.parseFloat(value ?? '');
  return Number.isFinite(n) ? n : Number.NaN;
}

/** Prices keep the precision the backend sent. */
export function formatPrice(value: Decimal | null | undefined): string {
  if (value === null || value === undefined || value === '') return '--';
  return Number.isFinite(toNumber(value)) ? String(value) : '--';
}

/** `1.234` → `+1.23%`, `-0.5` → `-0.50%`. */
export function formatChange(value: Decimal | null | undefined): string {
  const n = toNumber(value);
  if (!Number.isFinite(n)) return '--';
  return `${n >= 0 ? '+' : ''}${n.toFixed(2)}%`;
}

export function formatVolume(value: Decimal | null | undefined, locale?: string): string {
  const n = toNumber(value);
  if (!Number.isFinite(n)) return '--';
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(n);
}

export function changeDirection(value: Decimal | null | undefined): 'up' | 'down' | 'flat' {
  const n = toNumber(value);
  if (!Number.isFinite(n) || n === 0) return 'flat';
  return n > 0 ? 'up' : 'down';
}
