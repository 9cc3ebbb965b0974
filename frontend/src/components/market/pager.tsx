/** Previous / page x of y / next under the order and position tables of the trading screens. */
import { useTranslation } from 'react-i18next';

export function Pager({
  page,
  lastPage,
  onPage,
  testId,
}: {
  page: number;
  lastPage: number;
  onPage: (page: number) => void;
  testId: string;
}) {
  const { t } = useTranslation('spot');
  if (lastPage <= 1) return null;
  return (
    <nav className="tp-pager" data-testid={testId}>
      <button type="button" className="tp-button ghost small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('orders.prev')}
      </button>
      <span className="num">{t('orders.page', { page, pages: lastPage })}</span>
      <button type="button" className="tp-button ghost small" disabled={page >= lastPage} onClick={() => onPage(page + 1)}>
        {t('orders.next')}
      </button>
    </nav>
  );
}
