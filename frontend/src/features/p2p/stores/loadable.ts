/**
 * One answer of the API a P2P screen shows (the config, a page of ads, an order): what it holds,
 * whether it is loading, ready or failed, and the server's message when it failed. A later `load`
 * supersedes one still on its way (a tab switched twice quickly shows the last tab's answer); a
 * reload that fails keeps what was shown.
 *
 * The same contract as the earn screens' `Loadable` (features/earn/common/loadable.ts); features do
 * not import each other, so moving both onto one in src/lib is left to whoever next needs a third.
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

  /** Forget what was shown (another tab's list) and read again. */
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
