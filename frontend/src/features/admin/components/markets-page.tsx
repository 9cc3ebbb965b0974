import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import type { MarketPair } from '../api/types';
import { useAdmin } from '../stores/admin-store';
import { EDITABLE, type PairSwitch, type Section } from '../stores/markets-store';
import { type Ask, EditRow, RowOutcome, SettingsRow, SettingsTable } from './settings-table';

/** A switch of the pair to confirm with a reason, and its button's text. */
type AskSwitch = (pair: MarketPair, which: PairSwitch, value: boolean, label: string) => void;

const COLUMNS = EDITABLE.length + 6; // symbol, trading, selling, lever, second contracts, the editable fields, actions
const TITLES = { limits: 'markets.editTitle', lever: 'markets.leverTitle', micro: 'markets.microTitle' } as const;
const NUMERIC = new Set(['max_open_orders', 'lever_max_hands']);
const TEXT = new Set(['lever_multiples', 'lever_shares', 'micro_seconds']);

/** The switch a lever or second-contract form carries, with its button's text. */
function switchOf(pair: MarketPair, section: Section) {
  if (section === 'lever') {
    const label = pair.open_lever ? 'markets.closeLever' : 'markets.openLever';
    return { which: 'open_lever', value: !pair.open_lever, label } as const;
  }
  if (section === 'micro') {
    const label = pair.open_microtrade ? 'markets.closeMicro' : 'markets.openMicro';
    return { which: 'open_microtrade', value: !pair.open_microtrade, label } as const;
  }
  return null;
}

const EditForm = observer(function EditForm({ pair, ask }: { pair: MarketPair; ask: AskSwitch }) {
  const { t } = useTranslation('admin');
  const { markets } = useAdmin();
  const draft = markets.draft!;
  const section = markets.section;
  const toggle = switchOf(pair, section);
  return (
    <EditRow columns={COLUMNS} testId={`markets-form-${pair.id}`} section={section} title={t(TITLES[section], { symbol: pair.symbol })}
      note={section === 'limits' ? undefined : t(section === 'lever' ? 'markets.leverNote' : 'markets.microNote')}
      error={markets.errors.get(pair.id)} unchanged={Object.keys(markets.changes).length === 0}
      sending={markets.stateOf(pair.id) === 'sending'} onCancel={markets.close} onSave={(reason) => void markets.save(reason)}>
      {toggle && (
        <div className="adm-actions">
          <Offered on={section === 'lever' ? pair.open_lever : pair.open_microtrade} />
          <button type="button" className={toggle.value ? 'adm-primary' : 'adm-danger'} data-testid={`markets-switch-${pair.id}`}
            disabled={markets.stateOf(pair.id) === 'sending'}
            onClick={() => ask(pair, toggle.which, toggle.value, t(toggle.label))}>
            {t(toggle.label)}
          </button>
        </div>
      )}
      <div className="adm-fields">
        {markets.fields.map((field) => (
          <label key={field} className="adm-field">
            <span>{t(`markets.${field}`)}</span>
            <input name={field} value={draft[field] ?? ''}
              inputMode={NUMERIC.has(field) ? 'numeric' : TEXT.has(field) ? 'text' : 'decimal'}
              onChange={(e) => markets.change(field, e.target.value)} required maxLength={field === 'micro_seconds' ? 128 : 64} />
          </label>
        ))}
      </div>
    </EditRow>
  );
});

function Offered({ on, usdt = true }: { on: boolean; usdt?: boolean }) {
  const { t } = useTranslation('admin');
  if (!usdt) return <span className="adm-muted" title={t('markets.usdtOnly')}>—</span>;
  return <span className={on ? 'adm-badge' : 'adm-badge adm-bad'}>{on ? t('markets.offered') : t('markets.notOffered')}</span>;
}

/** The row's message after a change: which actors took it. */
function savedText(section: Section | undefined, live: boolean) {
  if (section === 'lever') return live ? ('markets.savedLever' as const) : ('markets.savedLaterShards' as const);
  if (section === 'micro') return live ? ('markets.savedMicro' as const) : ('markets.savedLaterShards' as const);
  return live ? ('markets.saved' as const) : ('markets.savedLater' as const);
}

const Row = observer(function Row({ pair, ask }: { pair: MarketPair; ask: AskSwitch }) {
  const { t } = useTranslation('admin');
  const { markets } = useAdmin();
  const state = markets.stateOf(pair.id);
  const busy = state === 'sending';
  const editing = markets.editingId === pair.id;
  const usdt = pair.quote === 'USDT';
  const trading = pair.open_change ? t('markets.close') : t('markets.open');
  const selling = pair.sell_disabled ? t('markets.allowSelling') : t('markets.disableSelling');
  return (
    <SettingsRow testId={`markets-row-${pair.id}`} editing={editing}
      cells={
        <>
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
          <td data-testid={`markets-lever-state-${pair.id}`}><Offered on={pair.open_lever} usdt={usdt} /></td>
          <td data-testid={`markets-micro-state-${pair.id}`}><Offered on={pair.open_microtrade} usdt={usdt} /></td>
          {EDITABLE.map((field) => <td key={field} className="num">{pair[field]}</td>)}
        </>
      }
      actions={
        <>
          <button type="button" className={pair.open_change ? 'adm-danger' : 'adm-primary'} disabled={busy}
            data-testid={`markets-toggle-trading-${pair.id}`}
            onClick={() => ask(pair, 'open_change', !pair.open_change, trading)}>
            {trading}
          </button>
          <button type="button" className={pair.sell_disabled ? '' : 'adm-danger'} disabled={busy}
            data-testid={`markets-toggle-selling-${pair.id}`}
            onClick={() => ask(pair, 'sell_disabled', !pair.sell_disabled, selling)}>
            {selling}
          </button>
          <button type="button" disabled={busy || editing} data-testid={`markets-edit-${pair.id}`}
            onClick={() => markets.edit(pair)}>
            {t('markets.edit')}
          </button>
          <button type="button" disabled={busy || editing || !usdt} data-testid={`markets-lever-${pair.id}`}
            title={usdt ? undefined : t('markets.usdtOnly')} onClick={() => markets.edit(pair, 'lever')}>
            {t('markets.editLever')}
          </button>
          <button type="button" disabled={busy || editing || !usdt} data-testid={`markets-micro-${pair.id}`}
            title={usdt ? undefined : t('markets.usdtOnly')} onClick={() => markets.edit(pair, 'micro')}>
            {t('markets.editMicro')}
          </button>
        </>
      }
      outcome={!(state === 'failed' && editing) && (
        <RowOutcome state={state} saved={t(savedText(markets.lastSection.get(pair.id), state === 'saved'))}
          error={markets.errors.get(pair.id)} testId={(what) => `markets-${what}-${pair.id}`} />
      )}
      form={editing && markets.draft && <EditForm pair={pair} ask={ask} />} />
  );
});

/**
 * The markets role's pairs: trading, selling, lever and second-contract switches; fees and bounds, lever
 * terms and second-contract terms, each change with a reason.
 */
export const MarketsPage = observer(function MarketsPage() {
  const { t } = useTranslation('admin');
  const { markets } = useAdmin();
  useEffect(() => void markets.pairs.load(), [markets]);
  const asker = (ask: (question: Ask) => void): AskSwitch => (pair, which, value, label) =>
    ask({
      message: t('markets.confirm', { action: label, symbol: pair.symbol }),
      confirm: (reason) => void markets.toggle(pair.id, which, value, reason),
    });
  return (
    <SettingsTable resource={markets.pairs}
      head={
        <>
          <th>{t('markets.symbol')}</th>
          <th>{t('markets.trading')}</th>
          <th>{t('markets.selling')}</th>
          <th>{t('markets.lever')}</th>
          <th>{t('markets.micro')}</th>
          {EDITABLE.map((field) => <th key={field} className="num">{t(`markets.${field}`)}</th>)}
          <th />
        </>
      }
      row={(pair, ask) => <Row key={pair.id} pair={pair} ask={asker(ask)} />} />
  );
});
