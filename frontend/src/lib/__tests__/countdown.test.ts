import { afterEach, describe, expect, it, vi } from 'vitest';

import { CODE_RESEND_SECONDS, createCountdown, createTicker, formatClock, secondsUntil } from '../countdown';
import { loginPath, safeRedirect } from '../navigation';

afterEach(() => {
  vi.useRealTimers();
});

describe('send-code countdown', () => {
  it('counts 60 seconds down to 0, once a second, then stops', () => {
    vi.useFakeTimers();
    const ticks: number[] = [];
    createCountdown((left) => ticks.push(left)).start();
    expect(CODE_RESEND_SECONDS).toBe(60);
    expect(ticks).toEqual([60]);
    vi.advanceTimersByTime(1000);
    expect(ticks.at(-1)).toBe(59);
    vi.advanceTimersByTime(59_000);
    expect(ticks.at(-1)).toBe(0);
    expect(ticks).toHaveLength(61);
    vi.advanceTimersByTime(5000);
    expect(ticks).toHaveLength(61);
  });

  it('stops when asked (the button left the page)', () => {
    vi.useFakeTimers();
    const onTick = vi.fn();
    const countdown = createCountdown(onTick);
    countdown.start(3);
    countdown.stop();
    vi.advanceTimersByTime(5000);
    expect(onTick).toHaveBeenCalledTimes(1);
  });
});

describe('login navigation', () => {
  it('remembers the current path as ?page=', () => {
    expect(loginPath('/lever')).toBe('/login?page=%2Flever');
    expect(loginPath('/notice?id=5&category_id=22')).toBe('/login?page=%2Fnotice%3Fid%3D5%26category_id%3D22');
    expect(loginPath('/login?page=%2Flever')).toBe('/login');
  });

  it('follows only internal pages after login, else /home', () => {
    expect(safeRedirect('/assets/transfer')).toBe('/assets/transfer');
    expect(safeRedirect(null)).toBe('/home');
    expect(safeRedirect('https://evil.example')).toBe('/home');
    expect(safeRedirect('//evil.example')).toBe('/home');
    expect(safeRedirect('/\\evil.example')).toBe('/home');
  });
});

describe('deadline countdowns', () => {
  it('rounds the seconds left up and stops at 0', () => {
    expect(secondsUntil(10_000, 0)).toBe(10);
    expect(secondsUntil(10_000, 8_800)).toBe(2);
    expect(secondsUntil(10_000, 10_000)).toBe(0);
    expect(secondsUntil(10_000, 12_000)).toBe(0);
  });

  it('shows seconds as a clock', () => {
    expect(formatClock(27)).toBe('0:27');
    expect(formatClock(299)).toBe('4:59');
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(-3)).toBe('0:00');
  });

  it('ticks once a second while running, once however often it is started', () => {
    vi.useFakeTimers();
    const onTick = vi.fn();
    const ticker = createTicker(onTick);
    ticker.start();
    ticker.start();
    expect(ticker.running).toBe(true);
    vi.advanceTimersByTime(3000);
    expect(onTick).toHaveBeenCalledTimes(3);
    ticker.stop();
    expect(ticker.running).toBe(false);
    vi.advanceTimersByTime(3000);
    expect(onTick).toHaveBeenCalledTimes(3);
  });
});
