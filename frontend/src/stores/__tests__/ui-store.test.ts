import { beforeEach, describe, expect, it, vi } from 'vitest';

import { MemoryStorage } from '@/test/memory-storage';

import { RootStore } from '../root-store';

let storage: MemoryStorage;

beforeEach(() => {
  storage = new MemoryStorage();
  vi.stubGlobal('localStorage', storage);
});

describe('UiStore', () => {
  it('defaults to dark theme and English', () => {
    const { ui } = new RootStore();
    expect(ui.theme).toBe('dark');
    expect(ui.lang).toBe('en');
  });

  it('restores valid saved preferences and ignores invalid ones', () => {
    storage.setItem('theme', 'light');
    storage.setItem('lang', 'gm');
    expect(new RootStore().ui).toMatchObject({ theme: 'light', lang: 'gm' });

    storage.setItem('theme', 'purple');
    storage.setItem('lang', 'xx');
    expect(new RootStore().ui).toMatchObject({ theme: 'dark', lang: 'en' });
  });

  it('persists changes to localStorage', () => {
    const { ui } = new RootStore();
    ui.toggleTheme();
    ui.setLang('hk');
    expect(storage.getItem('theme')).toBe('light');
    expect(storage.getItem('lang')).toBe('hk');
  });
});

describe('UiStore messages and overlay', () => {
  it('shows a success toast for 1 second and an error a little longer', () => {
    vi.useFakeTimers();
    const { ui } = new RootStore();
    ui.toast('success', 'Saved');
    ui.toast('error', 'Nope');
    vi.advanceTimersByTime(1000);
    expect(ui.toasts.map((t) => t.text)).toEqual(['Nope']);
    vi.advanceTimersByTime(2000);
    expect(ui.toasts).toEqual([]);
    vi.useRealTimers();
  });

  it('shows the same message once while it is up', () => {
    const { ui } = new RootStore();
    ui.toast('error', 'System error');
    ui.toast('error', 'System error');
    expect(ui.toasts).toHaveLength(1);
  });

  it('keeps the overlay up until every loading call ended', () => {
    const { ui } = new RootStore();
    ui.setLoading(true);
    ui.setLoading(true);
    ui.setLoading(false);
    expect(ui.loading).toBe(true);
    ui.setLoading(false);
    ui.setLoading(false); // an extra end never goes below zero
    expect(ui.loading).toBe(false);
    ui.setLoading(true);
    expect(ui.loading).toBe(true);
  });
});
