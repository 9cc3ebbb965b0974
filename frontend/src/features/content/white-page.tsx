import { useTranslation } from 'react-i18next';

import './content.css';

/** The whitepaper ships with the app (public/whitepaper.pdf). */
export const WHITEPAPER_URL = '/whitepaper.pdf';
/** The embedded document's height (spec §2). */
export const WHITEPAPER_HEIGHT = 800;

export default function WhitePage() {
  const { t } = useTranslation();
  return (
    <div className="white-page">
      <div className="white-head">
        <h1>{t('white.title')}</h1>
        <a className="button small ghost" href={WHITEPAPER_URL} download>
          {t('white.download')}
        </a>
      </div>
      <iframe className="white-frame" title={t('white.title')} src={WHITEPAPER_URL} height={WHITEPAPER_HEIGHT}
        data-testid="whitepaper" />
    </div>
  );
}
