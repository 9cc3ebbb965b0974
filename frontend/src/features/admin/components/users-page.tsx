import { observer } from 'mobx-react-lite';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import type { UserDetail } from '../api/types';
import { useAdmin } from '../stores/admin-store';
import type { FreezeKind } from '../stores/users-store';
import { ConfirmDialog } from './confirm-dialog';
import { Loaded } from './shared';

const Freeze = observer(function Freeze({ user }: { user: UserDetail }) {
  const { t } = useTranslation('admin');
  const { users } = useAdmin();
  const [asked, setAsked] = useState<{ kind: FreezeKind; frozen: boolean; label: string } | null>(null);
  const buttons: { kind: FreezeKind; frozen: boolean; label: string }[] = [
    { kind: 'login', frozen: !user.login_frozen, label: t(user.login_frozen ? 'users.unfreezeLogin' : 'users.freezeLogin') },
    { kind: 'withdrawals', frozen: !user.withdraw_frozen,
      label: t(user.withdraw_frozen ? 'users.unfreezeWithdrawals' : 'users.freezeWithdrawals') }, // prettier-ignore
  ];
  return (
    <div className="adm-actions">
      {buttons.map((b) => (
        <button key={b.kind} type="button" className={b.frozen ? 'adm-danger' : ''} onClick={() => setAsked(b)}>
          {b.label}
        </button>
      ))}
      {asked && (
        <ConfirmDialog
          message={t('users.confirmFreeze', { action: asked.label, id: user.id })}
          withText={t('common.reason')}
          required
          onCancel={() => setAsked(null)}
          onConfirm={(reason) => {
            setAsked(null);
            void users.freeze(asked.kind, asked.frozen, reason);
          }}
        />
      )}
    </div>
  );
});

const Detail = observer(function Detail({ user }: { user: UserDetail }) {
  const { t } = useTranslation('admin');
  const { session, users } = useAdmin();
  return (
    <div className="adm-card" data-testid="user-detail">
      <h2>
        #{user.id} {user.email || user.mobile}
      </h2>
      <p>
        {user.login_frozen && <span className="adm-badge adm-bad">{t('users.loginFrozen')}</span>}
        {user.withdraw_frozen && <span className="adm-badge adm-bad">{t('users.withdrawFrozen')}</span>}
        <span className="adm-muted"> {t('users.sessions', { count: user.sessions })} · {t('users.positions', { count: user.open_positions })}</span>
        {user.real_name && <span className="adm-muted"> · {t('users.realName')}: {user.real_name.name} ({user.real_name.review_status})</span>}
      </p>
      {session.roles.includes('risk') && <Freeze user={user} />}
      {users.error && <p className="adm-error" role="alert">{users.error}</p>}
      <h3>{t('users.accounts')}</h3>
      <table className="adm-table">
        <thead><tr><th>{t('users.type')}</th><th>{t('dashboard.currency')}</th><th className="num">{t('users.balance')}</th><th className="num">{t('users.locked')}</th></tr></thead>
        <tbody>
          {user.accounts.map((a) => (
            <tr key={`${a.type}-${a.currency}`}><td>{a.type}</td><td>{a.currency}</td><td className="num">{a.balance}</td><td className="num">{a.lock_balance}</td></tr>
          ))}
        </tbody>
      </table>
      <h3>{t('users.orders')}</h3>
      <table className="adm-table">
        <thead><tr><th>ID</th><th>{t('dashboard.pair')}</th><th className="num">{t('users.price')}</th><th className="num">{t('users.number')}</th><th>{t('users.status')}</th></tr></thead>
        <tbody>
          {user.orders.map((o) => (
            <tr key={o.id}><td>{o.id}</td><td>{o.pair_id} · {o.way === 1 ? 'buy' : 'sell'}</td><td className="num">{o.price}</td><td className="num">{o.number}</td><td>{o.status}</td></tr>
          ))}
        </tbody>
      </table>
      <h3>{t('users.records')}</h3>
      <table className="adm-table">
        <thead><tr><th>{t('users.time')}</th><th>{t('users.type')}</th><th className="num">{t('dashboard.amount')}</th><th className="num">{t('users.locked')}</th><th>{t('users.memo')}</th></tr></thead>
        <tbody>
          {user.records.map((r) => (
            <tr key={r.id}><td>{r.at.slice(0, 19).replace('T', ' ')}</td><td>{r.type}</td><td className="num">{r.amount}</td><td className="num">{r.lock}</td><td>{r.memo}</td></tr>
          ))}
        </tbody>
      </table>
    </div>
  );
});

/** Support's and risk's users: search, detail; risk freezes login or withdrawals with a reason. */
export const UsersPage = observer(function UsersPage() {
  const { t } = useTranslation('admin');
  const { users } = useAdmin();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    users.search();
  };
  return (
    <>
      <form className="adm-filters" onSubmit={submit}>
        <input name="q" placeholder={t('users.search')} value={users.q} onChange={(e) => users.setQuery(e.target.value)} />
        <button type="submit" className="adm-primary">{t('users.find')}</button>
      </form>
      <div className="adm-split">
        <div>
          {(users.results.data || users.results.error) && (
            <Loaded resource={users.results} empty={(d) => d.list.length === 0}>
              {(d) => (
                <table className="adm-table adm-clickable">
                  <thead><tr><th>{t('users.id')}</th><th>{t('users.email')}</th><th>{t('users.mobile')}</th><th /></tr></thead>
                  <tbody>
                    {d.list.map((u) => (
                      <tr key={u.id} onClick={() => users.select(u.id)} className={users.selectedId === u.id ? 'adm-selected' : ''}>
                        <td>{u.id}</td><td>{u.email}</td><td>{u.mobile}</td>
                        <td>{(u.login_frozen || u.withdraw_frozen) && <span className="adm-badge adm-bad">❄</span>}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </Loaded>
          )}
        </div>
        <div>{users.selectedId !== null && <Loaded resource={users.detail}>{(u) => <Detail user={u} />}</Loaded>}</div>
      </div>
    </>
  );
});
