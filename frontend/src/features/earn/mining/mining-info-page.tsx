/**
 * A mining product (/mining/info?id, public; spec shell §2, §5): cycle, limit range, daily interest,
 * principal returned at maturity, expected yield, and the financial account's USDT, ACB and MVBT;
 * the form picks the asset, takes an amount (All fills the selected asset's balance) and subscribes.
 * An amount below the minimum or above the maximum is refused here with the number.
 */
import type { TFunction } from 'i18next';
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { paths } from '@/config/paths';
import { EMPTY, formatPrice, truncate } from '@/lib/format';
import { useStores } from '@/stores/root-store';

import { ProductDetail, ProductDetailRoute, ProductForm } from '../common/product-detail';
import { AmountField, Facts } from '../common/ui';
import { createMiningApi } from './api/mining-api';
import { MiningStatusTag } from './components/parts';
import { type AmountProblem, expectedEarnings } from './lib/rules';
import { MiningInfoStore } from './stores/mining-stores';
import { ASSET_CODE, MINING_ASSETS, type MiningAsset, type MiningDetail, PRODUCT_STATUS } from './types';

import '../i18n';
import '../earn.css';

export default function MiningInfoPage() {
  return <ProductDetailRoute list={paths.miningList}>{(id) => <MiningInfo key={id} id={id} />}</ProductDetailRoute>;
}

const MiningInfo = observer(function MiningInfo({ id }: { id: number }) {
  const { t } = useTranslation('earn');
  const [store] = useState(() => new MiningInfoStore(createMiningApi(), id));
  useEffect(() => store.start(), [store]);
  const detail = store.detail.data;

  return (
    <ProductDetail testId="mining-info" list={paths.miningList} listTitle={t('mining.list.title')} resource={store.detail}
      product={detail && {
        title: detail.title,
        titleTestId: 'mining-title',
        logo: detail.logo,
        status: <MiningStatusTag status={detail.status} />,
        side: <BuyForm store={store} detail={detail} />,
        body: (
          <>
            <Facts testIdPrefix="mining-info"
              facts={[
                { key: 'cycle', label: t('mining.cycle'), value: t('common.days', { days: detail.zhouqi }) },
                { key: 'range', label: t('mining.range'), value: `${formatPrice(detail.mins)} – ${formatPrice(detail.maxs)}` },
                { key: 'daily', label: t('mining.dailyInterest'), value: `${detail.shouyi}%` },
                {
                  key: 'today',
                  label: t('mining.rateToday'),
                  value: detail.rate_today ? `${formatPrice(detail.rate_today)}%` : t('mining.notPublished'),
                },
                { key: 'principal', label: t('mining.principal'), value: t('mining.principalReturned'), className: '' },
                { key: 'expected', label: t('mining.expected'), value: `${truncate(detail.yuji)}%` },
                { key: 'penalty', label: t('mining.penaltyRate'), value: t('mining.penaltyPerDay', { rate: formatPrice(detail.penalty_rate) }) },
              ]} />
            <p className="muted earn-note">{t('mining.rule')}</p>
          </>
        ),
      }} />
  );
});

function problemText(t: TFunction<'earn'>, problem: AmountProblem): string {
  if (problem.kind === 'min') return t('mining.problems.min', { amount: formatPrice(problem.limit) });
  if (problem.kind === 'max') return t('mining.problems.max', { amount: formatPrice(problem.limit) });
  if (problem.kind === 'insufficient') return t('common.insufficient');
  return t('mining.problems.empty');
}

const BuyForm = observer(function BuyForm({ store, detail }: { store: MiningInfoStore; detail: MiningDetail }) {
  const { t } = useTranslation('earn');
  const { session } = useStores();
  const code = ASSET_CODE[store.type];
  const running = detail.status === PRODUCT_STATUS.running;
  const expected = expectedEarnings(store.amount, detail.yuji);

  return (
    <ProductForm testId="mining-form" title={t('mining.subscribe')} loggedIn={session.isLoggedIn} onSubmit={() => void store.submit()}
      intro={
        <Facts testIdPrefix="mining-balance"
          facts={MINING_ASSETS.map((a) => ({
            key: ASSET_CODE[a].toLowerCase(),
            label: t('mining.availableOf', { code: ASSET_CODE[a] }),
            value: formatPrice(a === 1 ? detail.money : a === 2 ? detail.acb : detail.mvbt),
          }))} />
      }>
      <label className="field">
        <span>{t('mining.asset')}</span>
        <select className="input" value={store.type} data-testid="mining-asset"
          onChange={(e) => store.setType(Number(e.target.value) as MiningAsset)}>
          {MINING_ASSETS.map((a) => (
            <option key={a} value={a}>
              {ASSET_CODE[a]}
            </option>
          ))}
        </select>
      </label>
      <AmountField label={t('mining.amount')} value={store.amount} unit={code} testId="mining-amount"
        placeholder={t('mining.amountPlaceholder', { min: formatPrice(detail.mins), max: formatPrice(detail.maxs) })}
        onChange={(v) => store.setAmount(v)} onAll={() => store.fillAll()} />
      <p className="muted" data-testid="mining-expected-earnings">
        {t('mining.expectedEarnings', { amount: expected ?? EMPTY, code })}
      </p>
      {store.problem && (
        <p className="form-error" role="alert" data-testid="mining-problem">
          {problemText(t, store.problem)}
        </p>
      )}
      <button type="submit" className="button block large" disabled={store.busy || (session.isLoggedIn && !running)}
        data-testid="mining-submit">
        {session.isLoggedIn ? (running ? t('mining.subscribe') : t(`mining.status.${detail.status === 0 ? 'notStarted' : 'ended'}`)) : t('common.loginToBuy')}
      </button>
    </ProductForm>
  );
});
