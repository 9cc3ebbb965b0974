/**
 * One account group (trade, legal, lever, micro or financial account; the route decides): total in
 * USD, a link to its records, and per currency the available, locked and USD amounts with deposit,
 * withdraw, convert and transfer actions — one row open at a time (spec "Assets area").
 */
import { observer } from 'mobx-react-lite';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';

import { paths } from '@/config/paths';
import { EMPTY, formatPrice, truncate } from '@/lib/format';

import { WalletLayout, LoadFailed } from './components/wallet-layout';
import { DepositPanel } from './components/deposit-panel';
import { WithdrawPanel } from './components/withdraw-panel';
import { canConvert, canDeposit, canWithdraw } from './lib/rules';
import type { AccountsStore } from './stores/accounts-store';
import type { Account, AccountCode, AccountGroup } from './types';
import { useAccounts } from './stores/use-accounts';

/** Which group each account route shows. */
export const ROUTE_ACCOUNT: Record<string, AccountCode> = {
  [paths.assets.tradeAccount]: 'change_account',
  [paths.assets.legalAccount]: 'legal_account',
  [paths.assets.leverAccount]: 'lever_account',
  [paths.assets.secondAccount]: 'micro_account',
  [paths.assets.financialAccount]: 'financial_account',
};

/** What an account's lock is: the lever account's, its positions' margins; the micro account's, open contracts' stakes. */
const LOCK_LABEL: Record<string, 'accounts.marginInUse' | 'accounts.stakesHeld'> = {
  lever_account: 'accounts.marginInUse',
  micro_account: 'accounts.stakesHeld',
};

export default observer(function AccountPage() {
  const { t } = useTranslation('wallet');
  const { pathname } = useLocation();
  const code = ROUTE_ACCOUNT[pathname] ?? 'change_account';
  const { api, accounts } = useAccounts();
  const group = accounts.group(code);

  return (
    <WalletLayout>
      <section className="panel" data-testid="account-page" data-account={code}>
        <div className="panel-head">
          <h2>{t(`accounts.${code}`)}</h2>
          <div className="asset-links">
            {code === 'change_account' && (
              <Link className="link-accent" to={paths.legalIndex.legal} data-testid="card-purchase">
                {t('accounts.cardPurchase')}
              </Link>
            )}
            {code === 'lever_account' && (
              <Link className="link-accent" to={paths.lever} data-testid="lever-link">
                {t('accounts.goLever')}
              </Link>
            )}
            {code === 'micro_account' && (
              <Link className="link-accent" to={paths.second} data-testid="second-link">
                {t('accounts.goSecond')}
              </Link>
            )}
            <Link className="link-accent" to={`${paths.assets.dealRecords}?types=${code}`} data-testid="records-link">
              {t('accounts.records')}
            </Link>
          </div>
        </div>
        <p className="asset-total">
          <span className="muted">{t('accounts.total')}</span>{' '}
          <strong data-testid="account-total">≈ {truncate(group?.convert_usd ?? (accounts.status === 'ready' ? 0 : null))} USD</strong>
        </p>
        {accounts.status === 'error' && <LoadFailed onRetry={() => void accounts.load()} />}
        {accounts.status === 'loading' && <p className="muted">{t('common.loading')}</p>}
        {group && (
          <AccountTable group={group} accounts={accounts} api={api} />
        )}
      </section>
    </WalletLayout>
  );
});

const AccountTable = observer(function AccountTable({
  group,
  accounts,
  api,
}: {
  group: AccountGroup;
  accounts: AccountsStore;
  api: ReturnType<typeof useAccounts>['api'];
}) {
  const { t } = useTranslation('wallet');
  if (!group.accounts.length) return <p className="empty">{t('common.empty')}</p>;
  return (
    <div className="table-wrap">
      <table className="data-table asset-table" data-testid="account-table">
        <thead>
          <tr>
            <th>{t('accounts.currency')}</th>
            <th className="num">{t('accounts.available')}</th>
            <th className="num">{t(LOCK_LABEL[group.account_code] ?? 'accounts.locked')}</th>
            <th className="num hide-sm">{t('accounts.usd')}</th>
            <th className="num">{t('accounts.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {group.accounts.map((a) => (
            <Fragment key={a.currency_id}>
              <tr data-testid="account-row" data-currency={a.currency_code}
                className={accounts.isOpen(a.currency_id) ? 'open' : undefined}>
                <td className="pair-base">{a.currency_code}</td>
                <td className="num" data-testid="account-balance">{formatPrice(a.balance)}</td>
                <td className="num" data-testid="account-locked">{formatPrice(a.lock_balance)}</td>
                <td className="num hide-sm">{truncate(a.convert_usd)}</td>
                <td className="num">
                  <RowActions group={group} account={a} accounts={accounts} />
                </td>
              </tr>
              {accounts.isOpen(a.currency_id) && (
                <tr className="asset-open-row">
                  <td colSpan={5}>
                    {accounts.isOpen(a.currency_id, 'deposit') && (
                      <DepositPanel api={api} currencyId={a.currency_id} code={a.currency_code} />
                    )}
                    {accounts.isOpen(a.currency_id, 'withdraw') && (
                      <WithdrawPanel api={api} account={a} onDone={() => void accounts.load()} />
                    )}
                    {accounts.isOpen(a.currency_id, 'convert') && <ConvertForm account={a} accounts={accounts} />}
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
});

const RowActions = observer(function RowActions({
  group,
  account,
  accounts,
}: {
  group: AccountGroup;
  account: Account;
  accounts: AccountsStore;
}) {
  const { t } = useTranslation('wallet');
  const id = account.currency_id;
  const action = (name: 'deposit' | 'withdraw' | 'convert', enabled: boolean) => (
    <button type="button" className={`row-action${accounts.isOpen(id, name) ? ' active' : ''}`} disabled={!enabled}
      aria-expanded={accounts.isOpen(id, name)} onClick={() => accounts.toggle(id, name)} data-testid={`action-${name}`}>
      {t(`accounts.${name}`)}
    </button>
  );
  return (
    <span className="row-actions">
      {action('deposit', canDeposit(group, account))}
      {action('withdraw', canWithdraw(group, account))}
      {canConvert(group, account) && action('convert', true)}
      <Link className="row-action" to={`${paths.assets.transfer}?currency_id=${id}&from=${group.account_code}`}
        data-testid="action-transfer">
        {t('accounts.transfer')}
      </Link>
    </span>
  );
});

const ConvertForm = observer(function ConvertForm({ account, accounts }: { account: Account; accounts: AccountsStore }) {
  const { t } = useTranslation('wallet');
  return (
    <form className="asset-panel convert-form" noValidate data-testid="convert-form"
      onSubmit={(e) => {
        e.preventDefault();
        void accounts.convert(account);
      }}>
      <label className="field">
        <span>{t('convert.amount', { code: account.currency_code })}</span>
        <input className="input" inputMode="decimal" value={accounts.convertAmount}
          placeholder={t('convert.placeholder')} onChange={(e) => accounts.setConvertAmount(e.target.value)}
          data-testid="convert-amount" />
      </label>
      <p className="muted" data-testid="convert-rate">
        {account.currency?.convert_rate
          ? t('convert.rate', { code: account.currency_code, price: formatPrice(account.currency.convert_rate) })
          : t('convert.stale')}
      </p>
      <p data-testid="convert-estimate">{t('convert.estimate', { amount: accounts.convertEstimate(account) ?? EMPTY })}</p>
      {accounts.convertError && (
        <p className="form-error" role="alert">{t(`convert.problems.${accounts.convertError}`)}</p>
      )}
      <button type="submit" className="button" data-testid="convert-submit">
        {t('convert.submit')}
      </button>
    </form>
  );
});
