import { vi } from 'vitest';

import type { AdminTransport } from '../api/admin-client';

/** A stand-in for the console transport: `answer(path, value)`; an Error rejects, a function gets the body. */
export function fakeAdmin() {
  const answers = new Map<string, unknown>();
  const reply = (path: string, arg: unknown) => {
    const value = answers.get(path);
    if (value instanceof Error) return Promise.reject(value);
    return Promise.resolve(typeof value === 'function' ? (value as (a: unknown) => unknown)(arg) : value);
  };
  const get = vi.fn((path: string, params?: unknown) => reply(path, params));
  const post = vi.fn((path: string, body?: unknown) => reply(path, body));
  const blob = vi.fn((path: string, params?: unknown) => reply(`blob:${path}`, params));
  return {
    api: { get, post, blob } as unknown as AdminTransport,
    get,
    post,
    blob,
    answer(path: string, value: unknown) {
      answers.set(path, value);
    },
  };
}

/** localStorage for the node test environment. */
export function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, String(v)),
  };
}
