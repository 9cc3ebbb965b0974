/** One-click close (spec dialog): every open position, or only the longs or the shorts, of this pair or of every pair. */
import { observer } from 'mobx-react-lite';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Dialog } from '@/components/ui/dialog';

import type { CloseSide } from '../api/lever-api';
import { useLeverPage } from '../stores/lever-page-store';
import { LONG, SHORT } from '../types';

const SIDES: { side: CloseSide; key: 'all' | 'long' | 'short' }[] = [
  { side: 0, key: 'all' },
  { side: LONG, key: 'long' },
  { side: SHORT, key: 'short' },
];

export const CloseAllDialog = observer(function CloseAllDialog({
  symbol,
  onClose,
}: {
  symbol: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('lever');
  const { positions } = useLeverPage();
  const [side, setSide] = useState<CloseSide>(0);
  const [everyPair, setEveryPair] = useState(symbol === null);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    setBusy(true);
    const done = await positions.batchClose(side, everyPair);
    setBusy(false);
    if (done) onClose();
  };

  return (
    <Dialog
      title={t('closeAll.title')}
      onClose={onClose}
      testId="lever-close-all-dialog"
      actions={
        <>
          <button type="button" className="tp-button ghost" onClick={onClose} data-testid="close-all-cancel">
            {t('closeAll.cancel')}
          </button>
          <button type="button" className="tp-button sell" disabled={busy} onClick={() => void confirm()} data-testid="close-all-ok">
            {t('closeAll.ok')}
          </button>
        </>
      }
    >
      <fieldset className="lv-choice">
        <legend className="muted">{t('closeAll.side')}</legend>
        {SIDES.map((s) => (
          <label key={s.key}>
            <input
              type="radio"
              name="close-side"
              checked={side === s.side}
              onChange={() => setSide(s.side)}
              data-testid={`close-all-${s.key}`}
            />{' '}
            {t(`closeAll.${s.key}`)}
          </label>
        ))}
      </fieldset>
      <fieldset className="lv-choice">
        <legend className="muted">{t('closeAll.scope')}</legend>
        {symbol && (
          <label>
            <input type="radio" name="close-scope" checked={!everyPair} onChange={() => setEveryPair(false)}
              data-testid="close-all-pair" />{' '}
            {t('closeAll.thisPair', { symbol })}
          </label>
        )}
        <label>
          <input type="radio" name="close-scope" checked={everyPair} onChange={() => setEveryPair(true)}
            data-testid="close-all-every" />{' '}
          {t('closeAll.everyPair')}
        </label>
      </fieldset>
      <p className="muted lv-hint">{t('closeAll.hint')}</p>
    </Dialog>
  );
});
