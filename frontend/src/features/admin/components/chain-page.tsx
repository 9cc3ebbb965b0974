import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { useAdmin } from '../stores/admin-store';
import { Amounts, Loaded } from './shared';

const EMPTY = '-';

/** Finance's view of the chains: each watcher's node, cursor and lag; each hot wallet, what waits to be
 * signed, the withdrawals not yet final (with the node's last refusal) and the last sweep. */
export const ChainPage = observer(function ChainPage() {
  const { t } = useTranslation('admin');
  const { chain } = useAdmin();
  useEffect(() => void chain.load(), [chain]);
  return (
    <>
      <button type="button" onClick={() => chain.load()}>
        {t('common.refresh')}
      </button>
      <Loaded resource={chain}>
        {(status) => (
          <>
            {status.watchers.length === 0 && <p className="adm-note">{t('chain.none')}</p>}
            {status.watchers.length > 0 && (
              <table className="adm-table" data-testid="chain-watchers">
                <thead>
                  <tr>
                    <th>{t('chain.chain')}</th>
                    <th className="num">{t('chain.height')}</th>
                    <th className="num">{t('chain.cursor')}</th>
                    <th className="num">{t('chain.lag')}</th>
                    <th className="num">{t('chain.pending')}</th>
                    <th>{t('chain.error')}</th>
                  </tr>
                </thead>
                <tbody>
                  {status.watchers.map((w) => (
                    <tr key={w.chain} className={w.error ? 'adm-row-bad' : 'adm-row-ok'} data-testid={`watcher-${w.chain}`}>
                      <td>{w.chain}</td>
                      <td className="num">{w.node_height ?? EMPTY}</td>
                      <td className="num">{w.cursor ?? EMPTY}</td>
                      <td className="num">{w.lag ?? EMPTY}</td>
                      <td className="num">{w.pending_deposits ?? EMPTY}</td>
                      <td>{w.error || EMPTY}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {status.signer.map((s) => (
              <section key={s.chain} className="adm-section" data-testid={`signer-${s.chain}`}>
                <h3>{t('chain.hotWallet', { chain: s.chain })}</h3>
                {s.hot_account && (
                  <p data-testid="hot-account">
                    <code>{s.hot_account}</code>
                  </p>
                )}
                <Amounts values={s.hot_wallet ?? {}} />
                <p>
                  {t('chain.unsigned', { count: s.approved_unsigned ?? 0 })}
                  {s.error && <span className="adm-error"> {s.error}</span>}
                </p>
                {s.last_sweep && (
                  <p data-testid="last-sweep">
                    {t('chain.sweep', { swept: s.last_sweep.swept.length, topped: s.last_sweep.topped_up.length })}{' '}
                    {Object.keys(s.last_sweep.excess).length > 0 && (
                      <span className="adm-error">{t('chain.excess')} <Amounts values={s.last_sweep.excess} /></span>
                    )}
                  </p>
                )}
                {(s.unconfirmed_withdrawals ?? []).length > 0 && (
                  <table className="adm-table" data-testid="unconfirmed">
                    <thead>
                      <tr>
                        <th className="num">{t('chain.withdrawal')}</th>
                        <th>{t('chain.txid')}</th>
                        <th>{t('chain.state')}</th>
                        <th className="num">{t('chain.confirmations')}</th>
                        <th className="num">{t('chain.attempts')}</th>
                        <th>{t('chain.error')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {(s.unconfirmed_withdrawals ?? []).map((u) => (
                        <tr key={u.txid} className={u.error ? 'adm-row-bad' : undefined}>
                          <td className="num">{u.withdrawal_id}</td>
                          <td className="mono">{u.txid}</td>
                          <td>{u.state}</td>
                          <td className="num">{u.confirmations}</td>
                          <td className="num">{u.attempts}</td>
                          <td>{u.error || EMPTY}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </section>
            ))}
          </>
        )}
      </Loaded>
    </>
  );
});
