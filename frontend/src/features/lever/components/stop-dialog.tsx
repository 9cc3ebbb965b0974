/**
 * Set take-profit and stop-loss of an open position (spec: "set take-profit/stop-loss" dialog).
 * An empty price clears it. A refusal (e.g. a long's take-profit below the mark) is the server's
 * message, shown in the dialog, which stays open to correct it.
 */
import { observer } from 'mobx-react-lite';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { UnitField } from '@/components/market/unit-field';
import { Dialog } from '@/components/ui/dialog';
import { positive, sanitizeDecimal, truncate } from '@/lib/format';

import { LEVER_PRICE_DECIMALS } from '../lib/money';
import { useLeverPage } from '../stores/lever-page-store';
import type { Position } from '../types';

/** What the field starts with: the price set, or nothing ("0" is "not set"). */
const initial = (value: string) => (positive(value) ? value : '');

export const StopDialog = observer(function StopDialog({ position, onClose }: { position: Position; onClose: () => void }) {
  const { t } = useTranslation('lever');
  const { positions } = useLeverPage();
  const [takeProfit, setTakeProfit] = useState(() => initial(position.target_profit_price));
  const [stopLoss, setStopLoss] = useState(() => initial(position.stop_loss_price));
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const live = positions.rows.find((r) => r.id === position.id) ?? position;

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (saving) return;
    setSaving(true);
    const refused = await positions.setStop(live, takeProfit, stopLoss);
    setSaving(false);
    if (refused) setProblem(refused);
    else onClose();
  };

  const field = (label: string, value: string, set: (v: string) => void, testId: string) => (
    <UnitField
      label={label}
      value={value}
      onChange={(text) => {
        set(sanitizeDecimal(text, LEVER_PRICE_DECIMALS));
        setProblem(null);
      }}
      testId={testId}
    />
  );

  return (
    <Dialog
      title={t('stop.title')}
      onClose={onClose}
      testId="lever-stop-dialog"
      actions={
        <>
          <button type="button" className="tp-button ghost" onClick={onClose} data-testid="stop-cancel">
            {t('stop.cancel')}
          </button>
          <button type="button" className="tp-button" disabled={saving} onClick={() => void submit()} data-testid="stop-save">
            {saving ? t('stop.saving') : t('stop.save')}
          </button>
        </>
      }
    >
      <form className="lv-fields" onSubmit={(e) => void submit(e)} noValidate>
        <p className={live.type === 1 ? 'up' : 'down'}>
          {t('stop.position', {
            side: t(`types.${live.type}`),
            symbol: live.symbol,
            hands: live.share,
            price: truncate(live.price, 4),
          })}
        </p>
        <p>
          <span className="muted">{t('stop.mark')}</span>{' '}
          <span className="num" data-testid="stop-mark">
            {truncate(positions.livePrice(live), 4)}
          </span>
        </p>
        {field(t('stop.tp'), takeProfit, setTakeProfit, 'stop-tp')}
        {field(t('stop.sl'), stopLoss, setStopLoss, 'stop-sl')}
        <p className="muted lv-hint">{t('stop.hint')}</p>
        <p className="tp-error" role="alert" data-testid="stop-error">
          {problem ?? ''}
        </p>
        <button type="submit" hidden aria-hidden="true" tabIndex={-1} />
      </form>
    </Dialog>
  );
});
