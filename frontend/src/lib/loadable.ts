/**
 * One answer of the API a screen shows (a list, a product, an order, a page of orders): what it holds, whether
 * it is loading, ready or failed, and the server's message when it failed. A later `load` supersedes
 * an earlier one still on its way (a tab switched twice quickly shows the last tab's answer).
 * A reload that fails keeps what was shown before.
 */
import { makeAutoObservable, runInAction } from 'mobx';

import { isApiError } from '@/lib/api-client';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

export class Loadable<T> {
  data: T | null = null;
  status: LoadStatus = 'idle';
  /** The server's message of the last failure (e.g. "not found"), null when there is none. */
  error: string | null = null;
  private seq = 0;

  constructor(private readonly fetch: () => Promise<T | undefined>) {
    makeAutoObservable<Loadable<T>, 'fetch' | 'seq'>(this, { fetch: false, seq: false });
  }

  get ready(): boolean {
    return this.status === 'ready';
  }

  /** Nothing to show and the last read failed. */
  get failed(): boolean {
    return this.status === 'error' && this.data === null;
  }

  async load(): Promise<void> {
    const seq = ++this.seq;
    if (this.status !== 'ready') this.status = 'loading';
    try {
      const data = await this.fetch();
      if (seq !== this.seq) return;
      runInAction(() => {
        this.data = data ?? null;
        this.status = 'ready';
        this.error = null;
      });
    } catch (error) {
      if (seq !== this.seq) return;
      runInAction(() => {
        this.status = this.data === null ? 'error' : 'ready';
        this.error = isApiError(error) && error.kind === 'business' ? error.message : null;
      });
    }
  }

  /** Forget what was shown (e.g. another tab's list) and read again. */
  reset(): Promise<void> {
    this.data = null;
    this.status = 'idle';
    return this.load();
  }

  /** Show an answer that came another way (an action answers the order's new detail). */
  set(data: T): void {
    this.seq += 1;
    this.data = data;
    this.status = 'ready';
    this.error = null;
  }
}
