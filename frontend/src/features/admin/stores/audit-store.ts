import { makeAutoObservable, runInAction } from 'mobx';

import type { AdminTransport } from '../api/admin-client';
import type { AuditRow, Page } from '../api/types';
import { messageOf, Resource } from './resource';

export interface AuditFilters {
  operator: string;
  action: string;
  target: string;
  /** `YYYY-MM-DD`, the first day shown (UTC). */
  since: string;
  /** `YYYY-MM-DD`, the last day shown (UTC, inclusive). */
  until: string;
}

export const EMPTY_FILTERS: AuditFilters = { operator: '', action: '', target: '', since: '', until: '' };
const DAY_MS = 86_400_000;

function dayMs(day: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The `admin/audit` query for these filters: empty ones left out, the date range as UTC days. */
export function auditQuery(filters: AuditFilters, page: number, limit = 50): Record<string, string | number> {
  const query: Record<string, string | number> = { page, limit };
  for (const key of ['operator', 'action', 'target'] as const) {
    const value = filters[key].trim();
    if (value) query[key] = value;
  }
  const since = dayMs(filters.since);
  const until = dayMs(filters.until);
  if (since !== undefined) query.since_ms = since;
  if (until !== undefined) query.until_ms = until + DAY_MS; // the server's bound is exclusive
  return query;
}

/** The admin role's audit trail: filters, pages and the CSV export of what is filtered. */
export class AuditStore {
  readonly trail: Resource<Page<AuditRow>>;
  draft: AuditFilters = { ...EMPTY_FILTERS };
  applied: AuditFilters = { ...EMPTY_FILTERS };
  page = 1;
  exportError = '';

  constructor(private readonly api: AdminTransport) {
    this.trail = new Resource(() => this.api.get<Page<AuditRow>>('audit', this.query));
    makeAutoObservable(this, {}, { autoBind: true });
  }

  get query(): Record<string, string | number> {
    return auditQuery(this.applied, this.page);
  }

  get lastPage(): number {
    const data = this.trail.data;
    return data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;
  }

  setDraft(key: keyof AuditFilters, value: string): void {
    this.draft = { ...this.draft, [key]: value };
  }

  apply(): void {
    this.applied = { ...this.draft };
    this.page = 1;
    void this.trail.load();
  }

  reset(): void {
    this.draft = { ...EMPTY_FILTERS };
    this.apply();
  }

  setPage(page: number): void {
    this.page = Math.min(Math.max(1, page), this.lastPage);
    void this.trail.load();
  }

  /** The filtered trail as CSV (up to 1000 rows, the API's page limit), fetched with the token. */
  async exportCsv(): Promise<Blob | null> {
    this.exportError = '';
    try {
      return await this.api.blob('audit', { ...auditQuery(this.applied, 1, 1000), format: 'csv' });
    } catch (error) {
      runInAction(() => (this.exportError = messageOf(error)));
      return null;
    }
  }
}
