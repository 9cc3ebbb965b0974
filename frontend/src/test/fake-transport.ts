import { vi } from 'vitest';

import type { ApiTransport } from '@/lib/api-client';

/**
 * A stand-in for the HTTP client: `answer(path, value)` sets what a path resolves with (a
 * function gets the call's body or options); unknown paths resolve undefined.
 */
export function fakeTransport() {
  const answers = new Map<string, unknown>();
  const reply = (path: string, arg: unknown) => {
    const value = answers.get(path);
    if (value instanceof Error) return Promise.reject(value);
    return Promise.resolve(typeof value === 'function' ? (value as (a: unknown) => unknown)(arg) : value);
  };
  const get = vi.fn((path: string, options?: unknown) => reply(path, options));
  const post = vi.fn((path: string, body?: unknown, _options?: unknown) => reply(path, body));
  return {
    api: { get, post } as unknown as ApiTransport,
    get,
    post,
    answer(path: string, value: unknown) {
      answers.set(path, value);
    },
  };
}
