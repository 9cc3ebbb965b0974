/**
 * Deposit panel: chain selector when there is more than one wallet (USDT: ERC20 and TRC20), the
 * address and memo with copy buttons, a QR code toggle and the reminder (spec "Assets area", shell §9).
 */
import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { CopyButton } from '@/components/ui/copy-button';

import type { WalletApi } from '../api/wallet-api';
import { DepositStore } from '../stores/deposit-store';
import { LoadFailed } from './wallet-layout';
import { QrCode } from '@/components/ui/qr-code';
import '../i18n';

export const DepositPanel = observer(function DepositPanel({
  api,
  currencyId,
  code,
}: {
  api: WalletApi;
  currencyId: number;
  code: string;
}) {
  const { t } = useTranslation('wallet');
  const [store] = useState(() => new DepositStore(api));
  useEffect(() => {
    void store.load(currencyId);
  }, [store, currencyId]);
  const wallet = store.wallet;

  return (
    <div className="asset-panel" data-testid="deposit-panel">
      {store.status === 'loading' && <p className="muted">{t('common.loading')}</p>}
      {store.status === 'error' && <LoadFailed onRetry={() => void store.load(currencyId)} />}
      {store.status === 'ready' && store.refusal && (
        <p className="muted" role="status" data-testid="deposit-refused">{store.refusal}</p>
      )}
      {store.status === 'ready' && !wallet && !store.refusal && (
        <p className="muted" data-testid="deposit-none">{t('deposit.none')}</p>
      )}
      {wallet && (
        <>
          {store.hasChoice && (
            <div className="tabs" role="tablist" aria-label={t('deposit.chain')} data-testid="deposit-chains">
              {store.wallets.map((w, i) => (
                <button key={w.id ?? i} type="button" role="tab" aria-selected={i === store.index}
                  className={`tab${i === store.index ? ' active' : ''}`} onClick={() => store.select(i)}>
                  {w.chain_protocol?.code ?? code}
                </button>
              ))}
            </div>
          )}
          <div className="deposit-body">
            <div className="deposit-fields">
              <label className="field">
                <span>{t('deposit.address', { code })}</span>
                <div className="input-group">
                  <input className="input mono" readOnly value={wallet.address} data-testid="deposit-address" />
                  <CopyButton text={wallet.address} testId="copy-address" />
                </div>
              </label>
              {wallet.memo ? (
                <label className="field">
                  <span>{t('deposit.memo')}</span>
                  <div className="input-group">
                    <input className="input mono" readOnly value={wallet.memo} data-testid="deposit-memo" />
                    <CopyButton text={wallet.memo} testId="copy-memo" />
                  </div>
                </label>
              ) : null}
              <button type="button" className="button small ghost qr-toggle" onClick={() => store.toggleQr()}
                data-testid="qr-toggle">
                {store.showQr ? t('deposit.hideQr') : t('deposit.showQr')}
              </button>
            </div>
            {store.showQr && <QrCode text={wallet.address} label={t('deposit.qr', { code })} testId="deposit-qr" />}
          </div>
          <ul className="reminder muted">
            <li>{t('deposit.reminderOnly', { code, chain: wallet.chain_protocol?.code ?? code })}</li>
            <li>{t('deposit.reminderConfirm')}</li>
            <li>{t('deposit.reminderMin')}</li>
          </ul>
        </>
      )}
    </div>
  );
});
