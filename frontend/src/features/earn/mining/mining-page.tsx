/** The mining introduction (/mining, public; spec shell §2): what hosting is, in sections, and the way to the products. */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';

import '../i18n';
import '../earn.css';

const SECTIONS = ['host', 'yield', 'principal', 'exit'] as const;

export default function MiningPage() {
  const { t } = useTranslation('earn');
  return (
    <div className="earn-page" data-testid="mining-intro">
      <section className="panel earn-hero">
        <h1>{t('mining.intro.title')}</h1>
        <p className="muted">{t('mining.intro.lead')}</p>
        <Link className="button large" to={paths.miningList} data-testid="mining-go-list">
          {t('mining.intro.go')}
        </Link>
      </section>
      <div className="earn-grid">
        {SECTIONS.map((s, i) => (
          <section key={s} className="panel earn-section" data-testid={`mining-section-${s}`}>
            <span className="earn-step num" aria-hidden="true">{i + 1}</span>
            <h3>{t(`mining.intro.${s}.title`)}</h3>
            <p className="muted">{t(`mining.intro.${s}.text`)}</p>
          </section>
        ))}
      </div>
    </div>
  );
}
