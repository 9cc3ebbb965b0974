import { makeAutoObservable, runInAction } from 'mobx';

/** One answer the screen shows: its data, whether it is loading, the last error's message. */
export class Resource<T> {
  data: T | null = null;
  loading = false;
  error = '';

  constructor(private readonly fetcher: () => Promise<T>) {
    makeAutoObservable(this, {}, { autoBind: true });
  }

  async load(): Promise<void> {
    this.loading = true;
    this.error = '';
    try {
      const data = await this.fetcher();
      runInAction(() => (this.data = data));
    } catch (error) {
      runInAction(() => (this.error = messageOf(error)));
    } finally {
      runInAction(() => (this.loading = false));
    }
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
