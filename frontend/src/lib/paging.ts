/** Paged lists of the API (`data`, `total`, `per_page`, `last_page`) and when to show the pager. */

/** Records are 15 a page (spec trading §9). */
export const RECORDS_PER_PAGE = 15;

/** The pager shows only when the total exceeds one page (spec: "only when the total exceeds 15"). */
export function needsPagination(total: number, perPage: number = RECORDS_PER_PAGE): boolean {
  return total > perPage;
}

/** Pages of `total` items, at least 1. */
export function pageCount(total: number, perPage: number = RECORDS_PER_PAGE): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, perPage)));
}
