import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import '../i18n';

/** A detail page opened without a readable `?id=`: say so and lead back to the list. */
export function NoSuchProduct({ back }: { back: string }) {
  const { t } = useTranslation('earn');
  return (
    <div className="empty" data-testid="earn-not-found">
      <p className="muted">{t('common.notFound')}</p>
      <Link className="button ghost" to={back}>
        {t('common.backToList')}
      </Link>
    </div>
  );
}
