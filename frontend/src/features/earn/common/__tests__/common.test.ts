import { describe, expect, it } from 'vitest';

import { ApiError } from '@/lib/api-client';

import { Loadable } from '@/lib/loadable';
import { exceeds, percentOf, positiveAmount, ringPercent, times } from '../money';
import { ringOption } from '../ring-option';

const colors = { fill: '#f0b90b', track: '#2b3139' };

describe('ringOption', () => {
  it('draws the done part and the rest as two slices of a ring', () => {
    const option = ringOption(37.5, colors);
    const series = (option.series as { data: { value: number; itemStyle: { color: string } }[] }[])[0]!;
    expect(series.data.map((d) => d.value)).toEqual([37.5, 62.5]);
    expect(series.data.map((d) => d.itemStyle.color)).toEqual([colors.fill, colors.track]);
  });

  it('clamps an oversubscribed or unreadable percent to the ring', () => {
    const values = (p: number) =>
      (ringOption(p, colors).series as { data: { value: number }[] }[])[0]!.data.map((d) => d.value);
    expect(values(250)).toEqual([100, 0]);
    expect(values(-3)).toEqual([0, 100]);
    expect(values(Number.NaN)).toEqual([0, 100]);
  });
});

describe('money helpers', () => {
  it('reads the percent a ring draws, whatever the server sent', () => {
    expect(ringPercent('45.25')).toBe(45.25);
    expect(ringPercent('180.00')).toBe(100);
    expect(ringPercent(null)).toBe(0);
  });

  it('multiplies and takes percents on decimal strings, never floats', () => {
    expect(times('0.1', '3')).toBe('0.3');
    expect(percentOf('1000', '0.35')).toBe('3.5');
    expect(exceeds('10.01', '10')).toBe(true);
    expect(exceeds('10', '10')).toBe(false);
    expect(positiveAmount('0')).toBeNull();
    expect(positiveAmount('12.50')).toBe('12.5');
  });
});

describe('Loadable', () => {
  it('keeps the last answer when an earlier, slower one arrives after it', async () => {
    const answers: ((v: string) => void)[] = [];
    const resource = new Loadable(() => new Promise<string>((resolve) => answers.push(resolve)));
    const first = resource.load();
    const second = resource.load();
    answers[1]!('second');
    await second;
    answers[0]!('first');
    await first;
    expect(resource.data).toBe('second');
    expect(resource.status).toBe('ready');
  });

  it("says why it failed (the server's message) and keeps what it showed on a failed reload", async () => {
    let fail = true;
    const resource = new Loadable(async () => {
      if (fail) throw new ApiError('Token sale not found', 'business', { code: 0 });
      return [1];
    });
    await resource.load();
    expect(resource.failed).toBe(true);
    expect(resource.error).toBe('Token sale not found');
    fail = false;
    await resource.load();
    expect(resource.data).toEqual([1]);
    fail = true;
    await resource.load();
    expect(resource.data).toEqual([1]);
    expect(resource.failed).toBe(false);
  });
});
