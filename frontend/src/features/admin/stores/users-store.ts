import { makeAutoObservable, runInAction } from 'mobx';

import type { AdminTransport } from '../api/admin-client';
import type { Page, UserDetail, UserRow } from '../api/types';
import { messageOf, Resource } from './resource';

export type FreezeKind = 'login' | 'withdrawals';

/** Support's and risk's user search and detail; freezing is risk's. */
export class UsersStore {
  q = '';
  selectedId: number | null = null;
  readonly results: Resource<Page<UserRow>>;
  readonly detail: Resource<UserDetail>;
  error = '';

  constructor(private readonly api: AdminTransport) {
    this.results = new Resource(() => this.api.get<Page<UserRow>>('users', { q: this.q.trim(), page: 1 }));
    this.detail = new Resource(() => this.api.get<UserDetail>('users/detail', { id: this.selectedId }));
    makeAutoObservable(this, {}, { autoBind: true });
  }

  setQuery(q: string): void {
    this.q = q;
  }

  search(): void {
    void this.results.load();
  }

  select(id: number): void {
    this.selectedId = id;
    void this.detail.load();
  }

  /** Freezes (`frozen` true) or unfreezes the user's login or withdrawals, with the reason. */
  async freeze(kind: FreezeKind, frozen: boolean, reason: string): Promise<boolean> {
    if (this.selectedId === null) return false;
    this.error = '';
    try {
      await this.api.post('users/freeze', { user_id: this.selectedId, [kind]: frozen, reason });
    } catch (error) {
      runInAction(() => (this.error = messageOf(error)));
      return false;
    }
    await this.detail.load();
    return true;
  }
}
