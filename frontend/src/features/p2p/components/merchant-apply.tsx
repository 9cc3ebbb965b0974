/**
 * For a user who is not an approved merchant: the application's state (none, under review, refused
 * with the reason), the verification levels as check marks with links to what is missing, and the
 * application form (a store nickname) when one may be sent.
 */
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { FormError } from '@/components/form/form-error';
import { paths } from '@/config/paths';

import { MERCHANT_STATUS, type MerchantInfo } from '../types';
import type { ShopStore } from '../stores/shop-store';

import '../i18n';

const STATUS_KEY = {
  [MERCHANT_STATUS.none]: 'none',
  [MERCHANT_STATUS.pending]: 'pending',
  [MERCHANT_STATUS.approved]: 'approved',
  [MERCHANT_STATUS.rejected]: 'rejected',
} as const;

function statusKey(status: number) {
  return STATUS_KEY[status as keyof typeof STATUS_KEY] ?? 'none';
}

export const MerchantApply = observer(function MerchantApply({ store, info }: { store: ShopStore; info: MerchantInfo }) {
  const { t } = useTranslation('p2p');
  const levels = [
    { key: 'mobile', done: info.levels.mobile, label: t('merchant.levels.mobile'), to: paths.bindPhone, link: t('merchant.levels.bindPhone') },
    {
      key: 'real_name',
      done: info.levels.real_name,
      label: t('merchant.levels.realName'),
      to: paths.personal.authentication,
      link: t('merchant.levels.authenticate'),
    },
    { key: 'advanced', done: info.levels.advanced, label: t('merchant.levels.advanced'), to: null, link: t('merchant.levels.byOperator') },
  ];
  return (
    <section className="panel p2p-apply" data-testid="p2p-merchant-apply" data-status={info.status}>
      <div className="panel-head">
        <h2>{t('merchant.title')}</h2>
        <span className={`p2p-tag ${info.status === MERCHANT_STATUS.rejected ? 'bad' : 'soon'}`} data-testid="p2p-merchant-status">
          {t(`merchant.status.${statusKey(info.status)}`)}
        </span>
      </div>
      <p className="muted">{t('merchant.intro')}</p>
      {info.status === MERCHANT_STATUS.pending && (
        <p className="p2p-note" data-testid="p2p-merchant-pending">
          {t('merchant.pending', { nickname: info.nickname })}
        </p>
      )}
      {info.status === MERCHANT_STATUS.rejected && (
        <p className="p2p-note bad" data-testid="p2p-merchant-rejected">
          {t('merchant.rejected', { reason: info.reject_reason || t('merchant.noReason') })}
        </p>
      )}
      <h3>{t('merchant.levels.title')}</h3>
      <ul className="p2p-levels">
        {levels.map((l) => (
          <li key={l.key} className={l.done ? 'done' : ''} data-testid={`p2p-level-${l.key}`} data-done={l.done}>
            <span className="p2p-check" aria-hidden="true">
              {l.done ? '✓' : '○'}
            </span>
            <span>{l.label}</span>
            {!l.done &&
              (l.to ? (
                <Link className="link-accent" to={l.to}>
                  {l.link}
                </Link>
              ) : (
                <span className="muted p2p-small">{l.link}</span>
              ))}
          </li>
        ))}
      </ul>
      {store.canApply ? (
        <form className="p2p-apply-form"
          onSubmit={(e) => {
            e.preventDefault();
            void store.apply();
          }}>
          <label className="field">
            <span>{t('merchant.nickname')}</span>
            <input className="input" value={store.nickname} maxLength={20} onChange={(e) => store.setNickname(e.target.value)}
              placeholder={t('merchant.nicknameHint')} data-testid="p2p-apply-nickname" />
          </label>
          <FormError message={store.nicknameProblem ? t('merchant.nicknameHint') : null} />
          <button type="submit" className="button" disabled={store.busy} data-testid="p2p-apply-submit">
            {t('merchant.apply')}
          </button>
        </form>
      ) : (
        !info.levels.real_name && (
          <p className="muted" data-testid="p2p-apply-need-real-name">
            {t('merchant.needRealName')}
          </p>
        )
      )}
    </section>
  );
});
