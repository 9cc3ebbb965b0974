import { useTranslation } from 'react-i18next';

/**
 * Shown when a page fails to render or its chunk cannot be fetched (typically after a new
 * release replaced the files): a reload picks up the current build.
 */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <section className="state-page" role="alert">
      <h1>{t('routeError.title')}</h1>
      <p className="muted">{t('routeError.description')}</p>
      <div className="state-page-actions">
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {t('routeError.reload')}
        </button>
      </div>
    </section>
  );
}
