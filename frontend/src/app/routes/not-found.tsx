import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <section className="state-page">
      <div className="state-page-icon" aria-hidden="true">
        404
      </div>
      <h1>{t('notFound.title')}</h1>
      <p className="muted">{t('notFound.description')}</p>
      <div className="state-page-actions">
        <Link className="button" to={paths.home}>
          {t('notFound.backHome')}
        </Link>
      </div>
    </section>
  );
}
