import { describe, expect, it } from 'vitest';

import { ASSETS_CODE_RESEND_SECONDS, CODE_RESEND_SECONDS } from '../countdown';
import { needsPagination, pageCount, RECORDS_PER_PAGE } from '../paging';

describe('pagination', () => {
  it('shows the pager only above 15 records', () => {
    expect(RECORDS_PER_PAGE).toBe(15);
    expect(needsPagination(15)).toBe(false);
    expect(needsPagination(16)).toBe(true);
    expect(needsPagination(0)).toBe(false);
    expect(needsPagination(7, 6)).toBe(true);
  });

  it('counts pages, at least one', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(15)).toBe(1);
    expect(pageCount(31)).toBe(3);
  });
});

describe('code countdowns', () => {
  it('are 60 s on the personal pages and 59 s on the assets pages', () => {
    expect(CODE_RESEND_SECONDS).toBe(60);
    expect(ASSETS_CODE_RESEND_SECONDS).toBe(59);
  });
});
