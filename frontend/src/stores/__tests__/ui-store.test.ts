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
