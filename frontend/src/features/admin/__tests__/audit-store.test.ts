import { describe, expect, it } from 'vitest';

import { queryString } from '../api/admin-client';
import { AuditStore, auditQuery, EMPTY_FILTERS } from '../stores/audit-store';
import { fakeAdmin } from './fake-admin';

describe('auditQuery', () => {
  it('sends only the page without filters', () => {
    expect(auditQuery(EMPTY_FILTERS, 1)).toEqual({ page: 1, limit: 50 });
  });

  it('trims the text filters and turns the days into an inclusive UTC range', () => {
    const query = auditQuery(
      { operator: ' ops@ex.com ', action: 'withdrawal.', target: 'user:42', since: '2026-11-01', until: '2026-11-02' },
      3,
    );
    expect(query).toEqual({
      page: 3, limit: 50, operator: 'ops@ex.com', action: 'withdrawal.', target: 'user:42',
      since_ms: Date.UTC(2026, 10, 1), until_ms: Date.UTC(2026, 10, 3),
    }); // prettier-ignore
  });

  it('ignores a half-typed date', () => {
    expect(auditQuery({ ...EMPTY_FILTERS, since: '2026-1' }, 1)).toEqual({ page: 1, limit: 50 });
  });

  it('leaves empty values out of the query string', () => {
    expect(queryString({ operator: '', action: 'p2p.', page: 1, x: undefined })).toBe('?action=p2p.&page=1');
  });
});

describe('AuditStore', () => {
  it('applies the typed filters from page 1 and pages through the answer', async () => {
    const fake = fakeAdmin();
    fake.answer('audit', { list: [], page: 1, total: 120, limit: 50 });
    const store = new AuditStore(fake.api);
    store.setDraft('action', 'p2p.');
    expect(store.query).toEqual({ page: 1, limit: 50 }); // not applied yet
    store.apply();
    await Promise.resolve();
    expect(fake.get).toHaveBeenLastCalledWith('audit', { page: 1, limit: 50, action: 'p2p.' });
    await store.trail.load();
    expect(store.lastPage).toBe(3);
    store.setPage(9);
    expect(store.page).toBe(3);
    expect(fake.get).toHaveBeenLastCalledWith('audit', { page: 3, limit: 50, action: 'p2p.' });
  });

  it('exports the filtered rows as CSV through the token-carrying transport', async () => {
    const fake = fakeAdmin();
    const csv = new Blob(['id,at\n']);
    fake.answer('blob:audit', csv);
    const store = new AuditStore(fake.api);
    store.setDraft('operator', 'ops@ex.com');
    store.apply();
    expect(await store.exportCsv()).toBe(csv);
    expect(fake.blob).toHaveBeenCalledWith('audit', { page: 1, limit: 1000, operator: 'ops@ex.com', format: 'csv' });
  });
});
