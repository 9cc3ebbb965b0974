import { observer } from 'mobx-react-lite';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import type { MarketPair } from '../api/types';
import { useAdmin } from '../stores/admin-store';
import { EDITABLE, type PairSwitch } from '../stores/markets-store';
import { ConfirmDialog } from './confirm-dialog';
import { Loaded } from './shared';

interface Asked {
  pair: MarketPair;
  which: PairSwitch;
  value: boolean;
  label: string;
}

const COLUMNS = EDITABLE.length + 4; // symbol, trading, selling, the editable fields, actions

const EditForm = observer(function EditForm({ pair }: { pair: MarketPair }) {
  const { t } = useTranslation('admin');
  const { markets } = useAdmin();
  const [reason, setReason] = useState('');
  const draft = markets.draft!;
  const unchanged = Object.keys(markets.changes).length === 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void markets.save(reason.trim());
  };
  return (
    <tr>
      <td colSpan={COLUMNS}>
        <form className="adm-card adm-form" data-testid={`markets-form-${pair.id}`} onSubmit={submit}>
          <h2>{t('markets.editTitle', { symbol: pair.symbol })}</h2>
          <div className="adm-fields">
            {EDITABLE.map((field) => (
              <label key={field} className="adm-field">
                <span>{t(`markets.${field}`)}</span>
                <input name={field} value={draft[field]} inputMode={field === 'max_open_orders' ? 'numeric' : 'decimal'}
                  onChange={(e) => markets.change(field, e.target.value)} required maxLength={32} />
              </label>
            ))}
          </div>
          <label className="adm-field">
            <span>{t('common.reason')}</span>
            <input name="reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} />
          </label>
          {markets.errors.get(pair.id) && <p className="adm-error" role="alert">{markets.errors.get(pair.id)}</p>}
          <div className="adm-actions">
            <button type="button" onClick={markets.close}>{t('common.cancel')}</button>
            <button type="submit" className="adm-primary" title={unchanged ? t('markets.unchanged') : t('common.reasonRequired')}
              disabled={unchanged || !reason.trim() || markets.stateOf(pair.id) === 'sending'}>
              {t('common.save')}
            </button>
          </div>
        </form>
      </td>
    </tr>
  );
});

const Row = observer(function Row({ pair, ask }: { pair: MarketPair; ask: (a: Asked) => void }) {
  const { t } = useTranslation('admin');
  const { markets } = useAdmin();
  const state = markets.stateOf(pair.id);
  const busy = state === 'sending';
  const editing = markets.editingId === pair.id;
  const trading = pair.open_change ? t('markets.close') : t('markets.open');
  const selling = pair.sell_disabled ? t('markets.allowSelling') : t('markets.disableSelling');
  return (
    <>
      <tr data-testid={`markets-row-${pair.id}`} className={editing ? 'adm-selected' : ''}>
        <td><b>{pair.symbol}</b> <small className="adm-muted">#{pair.id}</small></td>
        <td data-testid={`markets-trading-${pair.id}`}>
          <span className={pair.open_change ? 'adm-badge' : 'adm-badge adm-bad'}>
            {pair.open_change ? t('markets.tradingOpen') : t('markets.tradingClosed')}
          </span>
        </td>
        <td data-testid={`markets-selling-${pair.id}`}>
          <span className={pair.sell_disabled ? 'adm-badge adm-bad' : 'adm-badge'}>
            {pair.sell_disabled ? t('markets.sellingDisabled') : t('markets.sellingAllowed')}
          </span>
        </td>
        {EDITABLE.map((field) => <td key={field} className="num">{pair[field]}</td>)}
        <td>
          <div className="adm-decide">
            <button type="button" className={pair.open_change ? 'adm-danger' : 'adm-primary'} disabled={busy}
              data-testid={`markets-toggle-trading-${pair.id}`}
              onClick={() => ask({ pair, which: 'open_change', value: !pair.open_change, label: trading })}>
              {trading}
            </button>
            <button type="button" className={pair.sell_disabled ? '' : 'adm-danger'} disabled={busy}
              data-testid={`markets-toggle-selling-${pair.id}`}
              onClick={() => ask({ pair, which: 'sell_disabled', value: !pair.sell_disabled, label: selling })}>
              {selling}
            </button>
            <button type="button" disabled={busy || editing} data-testid={`markets-edit-${pair.id}`}
              onClick={() => markets.edit(pair)}>
              {t('markets.edit')}
            </button>
          </div>
          {(state === 'saved' || state === 'saved_later') && (
            <p className="adm-ok" role="status" data-testid={`markets-saved-${pair.id}`}>
              {t(state === 'saved' ? 'markets.saved' : 'markets.savedLater')}
            </p>
          )}
          {state === 'failed' && !editing && (
            <p className="adm-error" role="alert" data-testid={`markets-error-${pair.id}`}>{markets.errors.get(pair.id)}</p>
          )}
        </td>
      </tr>
      {editing && markets.draft && <EditForm pair={pair} />}
    </>
  );
});

/** The markets role's pairs: trading and selling switches, fees and bounds, each change with a reason. */
export const MarketsPage = observer(function MarketsPage() {
  const { t } = useTranslation('admin');
  const { markets } = useAdmin();
  const [asked, setAsked] = useState<Asked | null>(null);
  useEffect(() => void markets.pairs.load(), [markets]);
  return (
    <>
      <Loaded resource={markets.pairs} empty={(d) => d.length === 0}>
        {(rows) => (
          <div className="adm-scroll">
            <table className="adm-table adm-markets">
              <thead>
                <tr>
                  <th>{t('markets.symbol')}</th>
                  <th>{t('markets.trading')}</th>
                  <th>{t('markets.selling')}</th>
                  {EDITABLE.map((field) => <th key={field} className="num">{t(`markets.${field}`)}</th>)}
                  <th />
                </tr>
              </thead>
              <tbody>
                {rows.map((pair) => <Row key={pair.id} pair={pair} ask={setAsked} />)}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
      {asked && (
        <ConfirmDialog
          message={t('markets.confirm', { action: asked.label, symbol: asked.pair.symbol })}
          withText={t('common.reason')}
          required
          onCancel={() => setAsked(null)}
          onConfirm={(reason) => {
            setAsked(null);
            void markets.toggle(asked.pair.id, asked.which, asked.value, reason);
          }}
        />
      )}
    </>
  );
});
