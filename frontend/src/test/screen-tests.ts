import { afterEach, beforeEach, vi } from 'vitest';

import { MemoryStorage } from './memory-storage';

/**
 * The screen store tests' setting: fake timers (refreshes, countdowns, debounced reloads run when
 * the test moves the clock) and an empty localStorage (no pair or period remembered).
 */
export function setupScreenTests(): void {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('localStorage', new MemoryStorage());
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
