import { observer } from 'mobx-react-lite';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import type { MoveReport, PlacedPair, PlacementNode } from '../api/types';
import { useAdmin } from '../stores/admin-store';
import { slug } from '../stores/placement-store';
import { ConfirmDialog } from './confirm-dialog';
import { Loaded } from './shared';

interface Asked {
  symbol: string;
  from: string | null;
  node: string;
  reason: string;
}

const COLUMNS = 6; // symbol, node, pin, open orders, state, actions

function NodeCard({ node }: { node: PlacementNode }) {
  const { t } = useTranslation('admin');
  return (
    <div className="adm-card" data-testid={`placement-node-${node.name}`}>
      <h2>{node.name}</h2>
      <dl className="adm-facts">
        <dt>{t('placement.ip')}</dt>
        <dd>{node.ip}</dd>
        <dt>{t('placement.slots')}</dt>
        <dd>{node.pair_slots}</dd>
        <dt>{t('placement.pairs')}</dt>
        <dd data-testid={`placement-node-pairs-${node.name}`}>
          {node.pairs.length ? node.pairs.map((p) => <span key={p} className="adm-badge">{p}</span>) : <span className="adm-muted">—</span>}
        </dd>
      </dl>
      <small className="adm-muted adm-break">{node.id}</small>
    </div>
  );
}

function Report({ report }: { report: MoveReport }) {
  const { t } = useTranslation('admin');
  const s = slug(report.symbol);
  if (!report.moved) {
    return <p className="adm-note" role="status" data-testid={`placement-report-${s}`}>{t('placement.notMoved', { node: report.to ?? '' })}</p>;
  }
  const matches = report.matches_database;
  return (
    <p className={matches === false ? 'adm-error' : 'adm-ok'} role="status" data-testid={`placement-report-${s}`}>
      {t('placement.report', { from: report.from ?? '—', to: report.to ?? '—', pause: report.pause_ms ?? '—',
        orders: report.open_orders_after ?? '—' })}{' '}
      {t(matches === false ? 'placement.bookDiffers' : matches ? 'placement.bookMatches' : 'placement.bookUnchecked')}
    </p>
  );
}

/** Choosing the target node and the reason, below the pair's row. */
function MoveForm({ pair, targets, onCancel, onAsk }: {
  pair: PlacedPair; targets: string[]; onCancel: () => void; onAsk: (a: Asked) => void;
}) {
  const { t } = useTranslation('admin');
  const [node, setNode] = useState(targets[0] ?? '');
  const [reason, setReason] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (node) onAsk({ symbol: pair.symbol, from: pair.node, node, reason: reason.trim() });
  };
  return (
    <tr>
      <td colSpan={COLUMNS}>
        <form className="adm-card adm-form" data-testid={`placement-form-${slug(pair.symbol)}`} onSubmit={submit}>
          <h2>{t('placement.moveTitle', { symbol: pair.symbol })}</h2>
          {targets.length === 0 ? (
            <p className="adm-muted">{t('placement.noTarget')}</p>
          ) : (
            <div className="adm-two">
              <label className="adm-field">
                <span>{t('placement.target')}</span>
                <select name="node" value={node} onChange={(e) => setNode(e.target.value)}>
                  {targets.map((name) => <option key={name} value={name}>{name}</option>)}
                </select>
              </label>
              <label className="adm-field">
                <span>{t('common.reason')}</span>
                <input name="reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} />
              </label>
            </div>
          )}
          <div className="adm-actions">
            <button type="button" onClick={onCancel}>{t('common.cancel')}</button>
            <button type="submit" className="adm-primary" disabled={!node || !reason.trim()} title={t('common.reasonRequired')}>
              {t('placement.move')}
            </button>
          </div>
        </form>
      </td>
    </tr>
  );
}

const Row = observer(function Row({ pair, open, onOpen, onClose, onAsk }: {
  pair: PlacedPair; open: boolean; onOpen: () => void; onClose: () => void; onAsk: (a: Asked) => void;
}) {
  const { t } = useTranslation('admin');
  const { placement } = useAdmin();
  const s = slug(pair.symbol);
  const state = placement.stateOf(pair.symbol);
  const report = placement.reports.get(pair.symbol);
  return (
    <>
      <tr data-testid={`placement-pair-${s}`} className={open ? 'adm-selected' : ''}>
        <td><b>{pair.symbol}</b> <small className="adm-muted">#{pair.pair_id}</small></td>
        <td data-testid={`placement-pair-node-${s}`}>{pair.node ?? '—'}</td>
        <td>{pair.pin ?? <span className="adm-muted">—</span>}</td>
        <td className="num">{pair.open_orders ?? '—'}</td>
        <td>
          <span className={pair.state === 'up' ? 'adm-badge' : 'adm-badge adm-bad'} data-testid={`placement-pair-state-${s}`}>
            {t(`placement.state_${pair.state}`)}
          </span>
        </td>
        <td>
          <button type="button" data-testid={`placement-move-${s}`} disabled={open || state === 'sending'} onClick={onOpen}>
            {state === 'sending' ? t('placement.moving') : t('placement.move')}
          </button>
          {state === 'moved' && report && <Report report={report} />}
          {state === 'failed' && (
            <p className="adm-error" role="alert" data-testid={`placement-error-${s}`}>{placement.errors.get(pair.symbol)}</p>
          )}
        </td>
      </tr>
      {open && <MoveForm pair={pair} targets={placement.targetsFor(pair)} onCancel={onClose} onAsk={onAsk} />}
    </>
  );
});

/** The markets role's pair placement: nodes as cards, the pairs with their node, and moving a pair. */
export const PlacementPage = observer(function PlacementPage() {
  const { t } = useTranslation('admin');
  const { placement } = useAdmin();
  const [openSymbol, setOpenSymbol] = useState<string | null>(null);
  const [asked, setAsked] = useState<Asked | null>(null);
  useEffect(() => void placement.view.load(), [placement]);
  return (
    <>
      <Loaded resource={placement.view} empty={(d) => d.nodes.length === 0 && d.pairs.length === 0}>
        {(d) => (
          <>
            <div className="adm-grid adm-nodes" data-testid="placement-nodes">
              {d.nodes.map((node) => <NodeCard key={node.id} node={node} />)}
            </div>
            <div className="adm-scroll">
              <table className="adm-table adm-markets" data-testid="placement-pairs">
                <thead>
                  <tr>
                    <th>{t('placement.symbol')}</th>
                    <th>{t('placement.node')}</th>
                    <th>{t('placement.pin')}</th>
                    <th className="num">{t('placement.openOrders')}</th>
                    <th>{t('placement.state')}</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {d.pairs.map((pair) => (
                    <Row key={pair.symbol} pair={pair} open={openSymbol === pair.symbol} onOpen={() => setOpenSymbol(pair.symbol)}
                      onClose={() => setOpenSymbol(null)} onAsk={setAsked} />
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </Loaded>
      {asked && (
        <ConfirmDialog
          message={t('placement.confirm', { symbol: asked.symbol, from: asked.from ?? '—', to: asked.node })}
          onCancel={() => setAsked(null)}
          onConfirm={() => {
            setAsked(null);
            setOpenSymbol(null);
            void placement.move(asked.symbol, asked.node, asked.reason);
          }}
        />
      )}
    </>
  );
});
