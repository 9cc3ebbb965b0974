import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { noticePath, paths } from '@/config/paths';
import { NOTICE_CATEGORY } from '@/stores/content-store';
import { useStores } from '@/stores/root-store';

/** Each notice column shows at most 3 items (spec §2). */
export const FOOTER_ITEMS_PER_COLUMN = 3;

const COLUMNS = [
  { categoryId: NOTICE_CATEGORY.news, title: 'footer.news' },
  { categoryId: NOTICE_CATEGORY.about, title: 'footer.about' },
  { categoryId: NOTICE_CATEGORY.support, title: 'footer.support' },
] as const;

export const Footer = observer(function Footer() {
  const { t } = useTranslation();
  const { content } = useStores();

  useEffect(() => {
    for (const column of COLUMNS) void content.loadNotices(column.categoryId).catch(() => undefined);
  }, [content]);

  const email = content.settings.contact_email;
  const phone = content.settings.contact_mobile;

  return (
    <footer className="app-footer">
      <div className="footer-inner">
        <div className="footer-brand">
          <Link to={paths.home} className="brand">
            <span className="brand-mark" aria-hidden="true" />
            <span>{t('app.name')}</span>
          </Link>
          <p className="muted">{t('footer.tagline')}</p>
          {email && (
            <p className="muted">
              {t('footer.email')}: <a href={`mailto:${email}`}>{email}</a>
            </p>
          )}
          {phone && (
            <p className="muted">
              {t('footer.phone')}: {phone}
            </p>
          )}
        </div>
        {COLUMNS.map((column) => (
          <nav key={column.categoryId} className="footer-column" aria-label={t(column.title)}>
            <h3>{t(column.title)}</h3>
            <ul>
              {content
                .noticesOf(column.categoryId)
                .slice(0, FOOTER_ITEMS_PER_COLUMN)
                .map((item) => (
                  <li key={item.id}>
                    <Link to={noticePath(item.id, column.categoryId)}>{item.title}</Link>
                  </li>
                ))}
            </ul>
          </nav>
        ))}
        <nav className="footer-column" aria-label={t('footer.products')}>
          <h3>{t('footer.products')}</h3>
          <ul>
            <li>
              <Link to={paths.markets}>{t('nav.markets')}</Link>
            </li>
            <li>
              <Link to={paths.trade}>{t('nav.trade')}</Link>
            </li>
            <li>
              <Link to={paths.white}>{t('nav.white')}</Link>
            </li>
            <li>
              <Link to={paths.fees}>{t('nav.fees')}</Link>
            </li>
          </ul>
        </nav>
      </div>
      <div className="footer-bottom muted">
        © {new Date().getFullYear()} {t('app.name')}. {t('footer.rights')}
      </div>
    </footer>
  );
});
