import { useTranslation } from 'react-i18next';

import { needsPagination, pageCount } from '@/lib/paging';

import './pagination.css';

/** Previous / page x of y / next; nothing at all when everything fits on one page. */
export function Pagination({
  page,
  total,
  perPage,
  onPage,
}: {
  page: number;
  total: number;
  perPage: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  if (!needsPagination(total, perPage)) return null;
  const pages = pageCount(total, perPage);
  return (
    <nav className="pagination" aria-label={t('paging.label')} data-testid="pagination">
      <button type="button" className="button small ghost" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('paging.previous')}
      </button>
      <span className="muted">{t('paging.of', { page, pages })}</span>
      <button type="button" className="button small ghost" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('paging.next')}
      </button>
    </nav>
  );
}
