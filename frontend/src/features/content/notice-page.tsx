import { observer } from 'mobx-react-lite';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';

import { formatDateTime } from '@/lib/format';
import { sanitizeHtml } from '@/lib/sanitize';
import { NOTICE_CATEGORY } from '@/stores/content-store';
import { useStores } from '@/stores/root-store';

import './content.css';

/** The spec's categories have translated names; one an operator added shows the server's name. */
const CATEGORY_LABELS: Partial<Record<number, 'announcements' | 'news' | 'about' | 'support'>> = {
  [NOTICE_CATEGORY.announcements]: 'announcements',
  [NOTICE_CATEGORY.news]: 'news',
  [NOTICE_CATEGORY.about]: 'about',
  [NOTICE_CATEGORY.support]: 'support',
};

function positiveInt(value: string | null): number | null {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/**
 * Notice list and detail (spec §2): `?category_id` picks the list on the left, `?id` the notice
 * on the right (the newest when absent); clicking a title loads it.
 */
const NoticePage = observer(function NoticePage() {
  const { t } = useTranslation();
  const { content } = useStores();
  const [params, setParams] = useSearchParams();
  const categoryId = positiveInt(params.get('category_id')) ?? NOTICE_CATEGORY.announcements;
  const items = content.noticesOf(categoryId);
  const [listState, setListState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [articleState, setArticleState] = useState<'loading' | 'ready' | 'error'>('loading');
  const id = positiveInt(params.get('id')) ?? items[0]?.id ?? null;
  const article = id !== null ? content.articles.get(id) : undefined;

  useEffect(() => {
    if (!content.categories.length) content.loadCategories().catch(() => undefined);
  }, [content]);

  useEffect(() => {
    let live = true;
    setListState('loading');
    content.loadNotices(categoryId).then(
      () => live && setListState('ready'),
      () => live && setListState('error'),
    );
    return () => {
      live = false;
    };
  }, [content, categoryId]);

  useEffect(() => {
    if (id === null) return undefined;
    let live = true;
    setArticleState('loading');
    content.loadArticle(id).then(
      () => live && setArticleState('ready'),
      () => live && setArticleState('error'),
    );
    return () => {
      live = false;
    };
  }, [content, id]);

  const body = useMemo(() => (article ? sanitizeHtml(article.content) : ''), [article]);
  const open = (next: number) => setParams({ id: String(next), category_id: String(categoryId) });

  return (
    <div className="notice-page">
      <aside className="panel notice-list">
        <div className="tabs wrap" role="tablist">
          {content.readableCategories.map((tab) => {
            const label = CATEGORY_LABELS[tab.id];
            return (
              <button key={tab.id} type="button" role="tab" aria-selected={tab.id === categoryId}
                className={tab.id === categoryId ? 'tab active' : 'tab'}
                onClick={() => setParams({ category_id: String(tab.id) })}>
                {label ? t(`notice.categories.${label}`) : tab.name}
              </button>
            );
          })}
        </div>
        {listState === 'error' && !items.length ? (
          <p className="muted">{t('notice.unavailable')}</p>
        ) : (
          <ul>
            {items.map((item) => (
              <li key={item.id}>
                <button type="button" className={item.id === id ? 'notice-link active' : 'notice-link'}
                  aria-current={item.id === id} onClick={() => open(item.id)}>
                  <span>{item.title}</span>
                  <small className="muted">{formatDateTime(item.created_at)}</small>
                </button>
              </li>
            ))}
            {listState === 'ready' && !items.length && <li className="muted">{t('notice.empty')}</li>}
          </ul>
        )}
      </aside>
      <article className="panel notice-detail" aria-busy={articleState === 'loading'}>
        {article ? (
          <>
            <h1>{article.title}</h1>
            <p className="muted">{formatDateTime(article.created_at)}</p>
            <div className="rich-text" dangerouslySetInnerHTML={{ __html: body }} />
          </>
        ) : articleState === 'error' ? (
          <p className="muted">{t('notice.notFound')}</p>
        ) : id === null && listState !== 'loading' ? (
          <p className="muted">{t('notice.empty')}</p>
        ) : (
          <div className="skeleton-lines" aria-hidden="true">
            <span />
            <span />
            <span />
          </div>
        )}
      </article>
    </div>
  );
});

export default NoticePage;
