import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { BellIcon } from '@/components/icons';
import { noticePath } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { NOTICE_CATEGORY } from '@/stores/content-store';
import { useStores } from '@/stores/root-store';

const ROTATE_MS = 4000;

/** The latest announcements (category 22), one at a time. */
export const NoticeStrip = observer(function NoticeStrip() {
  const { t } = useTranslation();
  const { content } = useStores();
  const items = content.noticesOf(NOTICE_CATEGORY.announcements).slice(0, 5);
  const [index, setIndex] = useState(0);

  useEffect(() => {
    if (items.length < 2) return undefined;
    const timer = setInterval(() => setIndex((i) => (i + 1) % items.length), ROTATE_MS);
    return () => clearInterval(timer);
  }, [items.length]);

  const item = items[index % Math.max(items.length, 1)];
  return (
    <div className="notice-strip" data-testid="notice-strip">
      <BellIcon />
      <div className="notice-strip-body">
        {item ? (
          <Link key={item.id} className="notice-strip-item" to={noticePath(item.id, NOTICE_CATEGORY.announcements)}>
            <span>{item.title}</span>
            <span className="muted">{formatDate(item.created_at)}</span>
          </Link>
        ) : (
          <span className="muted">{t('home.noNotices')}</span>
        )}
      </div>
      <Link className="notice-strip-more" to={noticePath(null, NOTICE_CATEGORY.announcements)}>
        {t('home.more')}
      </Link>
    </div>
  );
});
