import { observer } from 'mobx-react-lite';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { CloseIcon } from '@/components/icons';
import { useStores } from '@/stores/root-store';

const SEEN_KEY = 'home_tips_seen';

function seenThisSession(): boolean {
  try {
    return sessionStorage.getItem(SEEN_KEY) === '1';
  } catch {
    return false;
  }
}

/** The site's popup message (the `tips` setting), once per browser session, out of the way. */
export const TipsPopup = observer(function TipsPopup() {
  const { t } = useTranslation();
  const { content } = useStores();
  const [closed, setClosed] = useState(seenThisSession);
  const tips = (content.settings.tips ?? '').trim();
  if (closed || !tips) return null;

  const close = () => {
    setClosed(true);
    try {
      sessionStorage.setItem(SEEN_KEY, '1');
    } catch {
      /* private mode: it shows again next time */
    }
  };

  return (
    <aside className="tips-popup" role="dialog" aria-labelledby="tips-title" data-testid="tips-popup">
      <div className="tips-head">
        <strong id="tips-title">{t('home.tipsTitle')}</strong>
        <button type="button" className="icon-button" aria-label={t('common.close')} onClick={close}>
          <CloseIcon />
        </button>
      </div>
      <p>{tips}</p>
      <button type="button" className="button small" onClick={close}>
        {t('common.gotIt')}
      </button>
    </aside>
  );
});
