/**
 * Withdraw panel: chain selector, address, amount (draw_min as placeholder), fee percent and amount
 * received computed live, memo, deal password (spec "Assets area", §5).
 */
import { observer } from 'mobx-react-lite';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { FormError } from '@/components/form/form-error';
import { SendCodeButton } from '@/components/form/send-code-button';
import { paths } from '@/config/paths';
import { ASSETS_CODE_RESEND_SECONDS } from '@/lib/countdown';
import { EMPTY, formatPrice } from '@/lib/format';
import { useStores } from '@/stores/root-store';

import type { WalletApi } from '../api/wallet-api';
import { isOpen, WithdrawStore } from '../stores/withdraw-store';
import type { Account } from '../types';
import '../i18n';

export const WithdrawPanel = observer(function WithdrawPanel({
  api,
  account,
  onDone,
}: {
  api: WalletApi;
  account: Account;
  onDone: () => void;
}) {
  const { t } = useTranslation('wallet');
  const { session } = useStores();
  const [store] = useState(() => new WithdrawStore(api, account));
  const code = account.currency_code;
  const c = account.currency;
  useEffect(() => {
    void store.loadProtocols();
    void store.loadBound();
  }, [store]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await store.submit()) onDone();
  };

  return (
    <form className="asset-panel withdraw-form" onSubmit={(e) => void submit(e)} noValidate data-testid="withdraw-panel">
      {store.protocols.length > 1 && (
        <div className="tabs" role="tablist" aria-label={t('deposit.chain')} data-testid="withdraw-chains">
          {store.protocols.map((p) => (
            <button key={p.id} type="button" role="tab" aria-selected={p.id === store.protocolId}
              className={`tab${p.id === store.protocolId ? ' active' : ''}`} onClick={() => store.setProtocol(p.id)}>
              {p.chain_protocol?.code ?? code}
              {!isOpen(p) && <span className="muted"> · {t('withdraw.suspended')}</span>}
            </button>
          ))}
        </div>
      )}
      {store.boundForChain.length > 0 && (
        <label className="field">
          <span>{t('withdraw.bound')}</span>
          <select className="input mono" value="" data-testid="withdraw-bound"
            onChange={(e) => e.target.value && store.setField('address', e.target.value)}>
            <option value="">{t('withdraw.chooseBound')}</option>
            {store.boundForChain.map((b) => (
              <option key={b.id} value={b.address}>
                {b.address}
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="button" className="button small ghost bind-toggle" onClick={() => store.toggleBinding()}
        aria-expanded={store.binding} data-testid="bind-toggle">
        {t('withdraw.bindNew')}
      </button>
      {store.binding && (
        <div className="bind-box" data-testid="bind-address-box">
          <label className="field">
            <span>{t('withdraw.newAddress')}</span>
            <input className="input mono" value={store.bindAddress} maxLength={128} placeholder={t('withdraw.p_addr')}
              onChange={(e) => store.setBindField('bindAddress', e.target.value)} data-testid="bind-address" />
          </label>
          <label className="field">
            <span>{t('withdraw.code')}</span>
            <div className="input-group">
              <input className="input" inputMode="numeric" maxLength={16} value={store.bindCode}
                onChange={(e) => store.setBindField('bindCode', e.target.value)} data-testid="bind-code" />
              <SendCodeButton seconds={ASSETS_CODE_RESEND_SECONDS} onSend={() => store.sendBindCode(session.uid)} />
            </div>
          </label>
          <FormError message={store.bindProblem ? t(`withdraw.bindProblems.${store.bindProblem}`) : null} />
          <button type="button" className="button small" onClick={() => void store.bind(session.uid)}
            data-testid="bind-submit">
            {t('withdraw.bind')}
          </button>
        </div>
      )}
      <label className="field">
        <span>{t('withdraw.address')}</span>
        <input className="input mono" value={store.address} maxLength={128} placeholder={t('withdraw.pbtwaf')}
          onChange={(e) => store.setField('address', e.target.value)} data-testid="withdraw-address" />
      </label>
      <label className="field">
        <span>
          {t('withdraw.amount')} <span className="muted">{t('withdraw.available', { amount: formatPrice(account.balance), code })}</span>
        </span>
        <input className="input" inputMode="decimal" value={store.amount}
          placeholder={t('withdraw.minPlaceholder', { min: formatPrice(c?.draw_min), code })}
          onChange={(e) => store.setAmount(e.target.value)} data-testid="withdraw-amount" />
      </label>
      <dl className="withdraw-sums">
        <div>
          <dt>{t('withdraw.fee', { percent: store.feePercent })}</dt>
          <dd data-testid="withdraw-fee">{store.fee ?? EMPTY} {code}</dd>
        </div>
        <div>
          <dt>{t('withdraw.receive')}</dt>
          <dd data-testid="withdraw-receive">{store.receive ?? EMPTY} {code}</dd>
        </div>
      </dl>
      <label className="field">
        <span>{store.needsMemo ? t('withdraw.memoRequired') : t('withdraw.memo')}</span>
        <input className="input" value={store.memo} maxLength={100} placeholder={t('withdraw.memoPlaceholder')}
          onChange={(e) => store.setField('memo', e.target.value)} data-testid="withdraw-memo" />
      </label>
      <label className="field">
        <span>{t('withdraw.payPassword')}</span>
        <input className="input" type="password" autoComplete="off" value={store.payPassword} maxLength={16}
          placeholder={t('withdraw.payPasswordPlaceholder')}
          onChange={(e) => store.setField('payPassword', e.target.value)} data-testid="withdraw-pay-password" />
      </label>
      <p className="muted small-note">
        {t('withdraw.noPayPassword')}{' '}
        <Link className="link-accent" to={paths.tradePassword}>{t('withdraw.setPayPassword')}</Link>
      </p>
      <FormError message={store.problem ? t(`withdraw.problems.${store.problem}`, { min: formatPrice(c?.draw_min), max: formatPrice(c?.draw_max), code }) : null} />
      {store.suspended && (
        <p className="form-error" role="alert" data-testid="withdraw-suspended">
          {t('withdraw.suspendedNote', { chain: store.protocol?.chain_protocol?.code ?? code })}
        </p>
      )}
      <button type="submit" className="button" disabled={store.busy || store.suspended} data-testid="withdraw-submit">
        {t('withdraw.submit')}
      </button>
    </form>
  );
});
