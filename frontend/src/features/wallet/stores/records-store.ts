/** A paged record list: account_log/<kind> or the transfer log, 15 a page, with a currency filter. */
import { makeAutoObservable, runInAction } from 'mobx';

import { RECORDS_PER_PAGE } from '@/lib/paging';
import type { Paginated } from '@/types/api';

import type { WalletApi } from '../api/wallet-api';
import type { AssetRecord, ChainDeposit, RecordsKind, Withdrawal } from '../types';
import type { LoadStatus } from './accounts-store';

export type RecordsSource =
  | { kind: 'records'; of: RecordsKind }
  | { kind: 'transferLog' }
  | { kind: 'withdrawals' }
  | { kind: 'deposits' };

export class RecordsStore<Row = AssetRecord> {
  rows: Row[] = [];
  total = 0;
  perPage = RECORDS_PER_PAGE;
  page = 1;
  currencyId: number | null = null;
  status: LoadStatus = 'idle';
  private seq = 0;

  constructor(
    private readonly api: WalletApi,
    public source: RecordsSource,
  ) {
    makeAutoObservable<RecordsStore<Row>, 'api' | 'seq' | 'fetch'>(this, { api: false, seq: false, fetch: false });
  }

  async load(): Promise<void> {
    const seq = ++this.seq;
    this.status = 'loading';
    try {
      const answer = (await this.fetch()) as Paginated<Row> | undefined;
      if (seq !== this.seq) return;
      runInAction(() => {
        this.rows = answer?.data ?? [];
        this.total = Number(answer?.total ?? this.rows.length);
        this.perPage = Number(answer?.per_page) || RECORDS_PER_PAGE;
        this.status = 'ready';
      });
    } catch {
      runInAction(() => {
        if (seq === this.seq) this.status = 'error';
      });
    }
  }

  private fetch(): Promise<Paginated<AssetRecord> | Paginated<Withdrawal> | Paginated<ChainDeposit> | undefined> {
    const { source, currencyId, page } = this;
    if (source.kind === 'records') return this.api.records(source.of, currencyId, page);
    if (source.kind === 'withdrawals') return this.api.withdrawals(currencyId, page);
    if (source.kind === 'deposits') return this.api.deposits(currencyId, page);
    return this.api.transferLog(currencyId, page);
  }

  setSource(source: RecordsSource): void {
    this.source = source;
    this.page = 1;
    void this.load();
  }

  setCurrency(id: number | null): void {
    this.currencyId = id;
    this.page = 1;
    void this.load();
  }

  setPage(page: number): void {
    this.page = page;
    void this.load();
  }
}
