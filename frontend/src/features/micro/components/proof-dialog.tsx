/**
 * The proof of a closed second contract: the order, its entry and exit ticks, the ticks between them
 * with their hashes, and what this browser found when it checked them (lib/proof.ts): the hash
 * chain, entry first after acceptance, exit last before the end, the outcome and the payout.
 */
import { observer } from 'mobx-react-lite';
import { useTranslation } from 'react-i18next';

import { Summary, type SummaryRow } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { EMPTY, formatDateTime, formatPrice } from '@/lib/format';

import type { ProofCheck } from '../lib/proof';
import { useMicroPage } from '../stores/micro-page-store';
import type { SettledProof, Tick } from '../types';

/** A tick time to the millisecond: `11-21 08:23:42.075`. */
const tickTime = (ms: number | null) => (ms === null ? EMPTY : `${formatDateTime(ms, { year: false })}.${String(ms % 1000).padStart(3, '0')}`);

/** The first and last characters of a hash. */
const shortHash = (hash: string) => `${hash.slice(0, 10)}…${hash.slice(-6)}`;

export const ProofDialog = observer(function ProofDialog() {
  const { t } = useTranslation('micro');
  const { proof } = useMicroPage();
  const close = () => proof.close();

  return (
    <Dialog
      title={t('proof.title', { id: proof.orderId ?? '' })}
      onClose={close}
      testId="second-proof"
      wide
      actions={
        <button type="button" className="tp-button ghost" onClick={close} data-testid="proof-close">
          {t('proof.close')}
        </button>
      }
    >
      {proof.loading && <p className="muted">{t('proof.loading')}</p>}
      {proof.failed && (
        <p className="tp-error" role="alert" data-testid="proof-failed">
          {proof.problem ?? t('proof.failed')}
        </p>
      )}
      {proof.proof && proof.check && <ProofBody proof={proof.proof} check={proof.check} />}
    </Dialog>
  );
});

function ProofBody({ proof, check }: { proof: SettledProof; check: ProofCheck }) {
  const { t } = useTranslation('micro');
  const { order, verdict } = proof;
  const { entry, exit, end } = check.decision;
  const tick = (tk: Tick | null) => (tk ? t('proof.tickText', { id: tk.id, price: formatPrice(tk.price), time: tickTime(tk.time) }) : EMPTY);
  const yesNo = (ok: boolean | null) => (ok === null ? t('proof.unknown') : ok ? t('proof.yes') : t('proof.no'));
  const state = (ok: boolean | null) => (ok === null ? 'unknown' : ok ? 'ok' : 'bad');
  const chain =
    check.chained === null
      ? t('proof.chainUnavailable')
      : check.chained
        ? t('proof.chainOk')
        : t('proof.chainBroken', { id: check.broken?.tickId ?? '' });
  const claimed = t(`outcomes.${verdict.outcome}`);
  // The ticks the contract ran over, entry and exit included (the log's next one only shows the end was passed).
  const span = entry && exit ? proof.ticks.indexOf(exit) - proof.ticks.indexOf(entry) + 1 : 0;

  const facts: SummaryRow[] = [
    {
      key: 'order',
      label: t('proof.order'),
      value: t('proof.orderText', {
        direction: t(`types.${order.type}`),
        symbol: order.symbol_name,
        stake: formatPrice(order.number),
        currency: order.currency_name,
        seconds: order.seconds,
        percent: formatPrice(order.profit_ratio),
      }),
    },
    { key: 'accepted', label: t('proof.accepted'), value: tickTime(order.accepted_at) },
    { key: 'entry', label: t('proof.entry'), value: tick(entry) },
    { key: 'end', label: t('proof.end'), value: tickTime(end) },
    { key: 'exit', label: t('proof.exit'), value: tick(exit) },
    { key: 'tick-count', label: t('proof.ticks'), value: t('proof.tickCount', { count: span }) },
  ];
  const checks: [string, string, boolean | null, string][] = [
    ['chain', t('proof.chain'), check.chained, chain],
    ['entry-first', t('proof.entryFirst'), check.entryFirst, yesNo(check.entryFirst)],
    ['exit-last', t('proof.exitLast'), check.exitLast, yesNo(check.exitLast)],
    ['outcome', t('proof.outcomeMatches'), check.matches, yesNo(check.matches)],
    [
      'payout',
      t('proof.payout'),
      check.paid,
      `${yesNo(check.paid)} · ${t('proof.payoutText', { payout: formatPrice(order.payout), profit: formatPrice(order.fact_profits) })}`,
    ],
  ];
  const shown = proof.anchor ? [proof.anchor, ...proof.ticks] : proof.ticks;

  return (
    <>
      <p
        className={`sc-verdict ${check.verified ? 'ok' : 'bad'}`}
        data-testid="proof-verdict"
        data-verified={check.verified}
        data-outcome={check.decision.outcome}
      >
        {check.verified ? t('proof.verified', { outcome: claimed }) : t('proof.mismatch', { outcome: claimed })}
      </p>
      <Summary rows={facts} testIdPrefix="proof" />
      <ul className="sc-checks">
        {checks.map(([key, label, ok, text]) => (
          <li key={key} className={state(ok)} data-testid={`proof-${key}`} data-state={state(ok)}>
            <span>{label}</span>
            <span>{text}</span>
          </li>
        ))}
      </ul>
      <div className="sc-ticks">
        <table className="tp-table" data-testid="proof-ticks">
          <thead>
            <tr>
              <th className="num">{t('proof.seq')}</th>
              <th>{t('proof.time')}</th>
              <th className="num">{t('proof.price')}</th>
              <th>{t('proof.hash')}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((tk) => (
              <tr
                key={tk.id}
                className={tk === entry || tk === exit ? 'sc-tick-key' : tk === proof.anchor ? 'muted' : undefined}
                data-testid="proof-tick"
                data-tick-id={tk.id}
              >
                <td className="num">{tk.seq}</td>
                <td>{tickTime(tk.time)}</td>
                <td className="num">{formatPrice(tk.price)}</td>
                <td className="sc-hash" title={tk.hash}>
                  {shortHash(tk.hash)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted sc-hint">{t('proof.rule')}</p>
    </>
  );
}
