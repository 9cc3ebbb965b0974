/**
 * The user's listing applications (/listing/order, token required; spec shell §2, §9): a table of
 * time, currency, USDT applied, tokens won, online date and status; 10 a page, the pager only when
 * there are more; "no data" when there is none.
 */
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { Pagination } from '@/components/ui/pagination';
import { paths } from '@/config/paths';
import { formatDate, formatDateTime, formatPrice } from '@/lib/format';

import { ReadState } from '../common/ui';
import { createListingApi, LISTING_PAGE_SIZE } from './api/listing-api';
import { ApplicationStatusTag } from './components/parts';
import { ListingOrdersStore } from './stores/listing-stores';
import { APPLICATION_STATUS } from './types';

import '../i18n';
import '../earn.css';

export default observer(function ListingOrderPage() {
  const { t } = useTranslation('earn');
  const [store] = useState(() => new ListingOrdersStore(createListingApi()));
  useEffect(() => store.start(), [store]);
  const data = store.orders.data;
  const rows = data?.list ?? [];

  return (
    <div className="earn-page" data-testid="listing-orders">
      <div className="earn-head">
        <h1>{t('listing.records.title')}</h1>
        <Link className="button ghost" to={paths.listing}>
          {t('listing.title')}
        </Link>
      </div>
      <section className="panel">
        <div className="table-wrap">
          <table className="data-table" data-testid="listing-records">
            <thead>
              <tr>
                <th>{t('listing.records.time')}</th>
                <th>{t('listing.currency')}</th>
                <th className="num">{t('listing.records.applied')}</th>
                <th className="num">{t('listing.records.winning')}</th>
                <th className="num">{t('listing.online')}</th>
                <th>{t('listing.records.statusHead')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} data-testid="listing-record" data-status={r.status}>
                  <td className="muted">{formatDateTime(r.times)}</td>
                  <td className="pair-base" data-testid="record-currency">{r.bizhong}</td>
                  <td className="num" data-testid="record-applied">{formatPrice(r.total)} USDT</td>
                  <td className="num" data-testid="record-winning">
                    {r.status === APPLICATION_STATUS.won ? `${formatPrice(r.nums)} ${r.bizhong}` : formatPrice(r.nums)}
                  </td>
                  <td className="num">{formatDate(r.online)}</td>
                  <td>
                    <ApplicationStatusTag status={r.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <ReadState resource={store.orders} empty={!rows.length} whenEmpty={t('common.noData')} />
        <Pagination page={store.page} total={Number(data?.total ?? 0)} perPage={LISTING_PAGE_SIZE}
          onPage={(p) => store.setPage(p)} />
      </section>
    </div>
  );
});
