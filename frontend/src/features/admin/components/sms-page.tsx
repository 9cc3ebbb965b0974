import { observer } from 'mobx-react-lite';
import { useEffect, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { SMS_STATES, type SmsMessage, type SmsState } from '../api/sms-types';
import { useAdmin } from '../stores/admin-store';
import { formatMs, Loaded, Pager } from './shared';

const when = (seconds: number | null) => (seconds === null ? '—' : formatMs(seconds * 1000));

function MessageRow({ m }: { m: SmsMessage }) {
  const { t } = useTranslation('admin');
  return (
    <tr data-testid={`sms-message-${m.id}`} data-state={m.state}>
      <td>{when(m.created_at)}</td>
      <td>{m.to} <small className="adm-muted">{m.region}</small></td>
      <td>{t(`sms.purpose_${m.purpose}`, { defaultValue: String(m.purpose) })}</td>
      <td>
        <span className={m.state === 'failed' ? 'adm-badge adm-bad' : 'adm-badge'}>{t(`sms.state_${m.state}`)}</span>
        {m.error && <small className="adm-error adm-break">{m.error}</small>}
      </td>
      <td>{m.provider || '—'} {m.provider_ref && <small className="adm-muted adm-break">{m.provider_ref}</small>}</td>
      <td className="num">{m.parts}</td>
      <td className="num">{m.rounds}</td>
      <td>{when(m.sent_at)}</td>
      <td>{when(m.done_at)}</td>
      <td className="adm-break"><small>{m.text}</small></td>
    </tr>
  );
}

/** The risk role's ceilings of codes a minute per country, and the form that sets or clears one. */
const Ceilings = observer(function Ceilings() {
  const { t } = useTranslation('admin');
  const { sms } = useAdmin();
  useEffect(() => void sms.ceilings.load(), [sms]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void sms.saveCeiling();
  };
  return (
    <section className="adm-card" data-testid="sms-ceilings">
      <h2>{t('sms.ceilings')}</h2>
      <Loaded resource={sms.ceilings}>
        {(d) => (
          <>
            <p className="adm-muted">{t('sms.default', { count: d.default })}</p>
            {d.list.length > 0 && (
              <table className="adm-table">
                <thead>
                  <tr>
                    <th>{t('sms.region')}</th>
                    <th>{t('sms.perMinute')}</th>
                    <th>{t('sms.used')}</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {d.list.map((c) => (
                    <tr key={c.region} data-testid={`sms-ceiling-${c.region}`}>
                      <td>{c.region}</td>
                      <td className="num">{c.per_minute === 0 ? t('sms.closed') : c.per_minute}</td>
                      <td className="num">{c.used}</td>
                      <td><button type="button" onClick={() => sms.edit(c.region, c.per_minute)}>{t('sms.edit')}</button></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </Loaded>
      <form className="adm-filters" onSubmit={submit} data-testid="sms-ceiling-form">
        <label className="adm-field">
          <span>{t('sms.region')}</span>
          <input name="region" value={sms.draft.region} maxLength={2} placeholder="CN"
            onChange={(e) => sms.change('region', e.target.value)} />
        </label>
        <label className="adm-field">
          <span>{t('sms.perMinute')}</span>
          <input name="per_minute" inputMode="numeric" value={sms.draft.perMinute} placeholder={t('sms.defaultHint')}
            onChange={(e) => sms.change('perMinute', e.target.value)} />
        </label>
        <button type="submit" className="adm-primary" disabled={!sms.ceilingRequest || sms.ceilingState === 'sending'}>
          {t('sms.save')}
        </button>
      </form>
      <p className="adm-muted">{t('sms.ceilingHint')}</p>
      {sms.ceilingState === 'saved' && <p className="adm-ok" role="status">{t('sms.saved')}</p>}
      {sms.ceilingState === 'failed' && <p className="adm-error" role="alert">{sms.ceilingError}</p>}
    </section>
  );
});

/** The SMS outbox: each phone code's state (support, risk), and the per-country ceilings (risk). */
export const SmsPage = observer(function SmsPage() {
  const { t } = useTranslation('admin');
  const { sms, session } = useAdmin();
  useEffect(() => void sms.messages.load(), [sms]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    sms.applyTo();
  };
  return (
    <>
      {session.roles.includes('risk') && <Ceilings />}
      <form className="adm-filters" onSubmit={submit}>
        <label className="adm-field">
          <span>{t('sms.state')}</span>
          <select name="state" value={sms.state ?? ''}
            onChange={(e) => sms.setState((e.target.value || null) as SmsState | null)}>
            <option value="">{t('sms.allStates')}</option>
            {SMS_STATES.map((s) => <option key={s} value={s}>{t(`sms.state_${s}`)}</option>)}
          </select>
        </label>
        <label className="adm-field">
          <span>{t('sms.to')}</span>
          <input name="to" inputMode="tel" value={sms.toDraft} onChange={(e) => sms.setToDraft(e.target.value)} />
        </label>
        <button type="submit" className="adm-primary">{t('sms.apply')}</button>
      </form>
      <Loaded resource={sms.messages} empty={(d) => d.list.length === 0}>
        {(d) => (
          <>
            <p className="adm-muted">{t('sms.total', { count: d.total })}</p>
            <div className="adm-scroll">
              <table className="adm-table" data-testid="sms-messages">
                <thead>
                  <tr>
                    <th>{t('sms.created')}</th>
                    <th>{t('sms.to')}</th>
                    <th>{t('sms.purpose')}</th>
                    <th>{t('sms.state')}</th>
                    <th>{t('sms.provider')}</th>
                    <th>{t('sms.parts')}</th>
                    <th>{t('sms.rounds')}</th>
                    <th>{t('sms.sent')}</th>
                    <th>{t('sms.done')}</th>
                    <th>{t('sms.text')}</th>
                  </tr>
                </thead>
                <tbody>
                  {d.list.map((m) => <MessageRow key={m.id} m={m} />)}
                </tbody>
              </table>
            </div>
            <Pager of={sms} />
          </>
        )}
      </Loaded>
    </>
  );
});
