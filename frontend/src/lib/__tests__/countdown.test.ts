import { afterEach, describe, expect, it, vi } from 'vitest';

import { CODE_RESEND_SECONDS, createCountdown } from '../countdown';
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
