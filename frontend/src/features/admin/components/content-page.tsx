import { observer } from 'mobx-react-lite';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { sanitizeHtml } from '@/lib/sanitize';

import { useAdmin } from '../stores/admin-store';
import { ConfirmDialog } from './confirm-dialog';
import { Loaded } from './shared';

const Editor = observer(function Editor() {
  const { t } = useTranslation('admin');
  const { content } = useAdmin();
  const draft = content.draft!;
  // The preview goes through the same sanitiser the notice page uses; the server cleans it again on save.
  const preview = useMemo(() => sanitizeHtml(draft.content), [draft.content]);
  return (
    <form className="adm-card adm-form adm-editor" onSubmit={(e) => { e.preventDefault(); void content.save(); }}>
      <h2>{draft.id ? `${t('content.edit')} #${draft.id}` : t('content.add')}</h2>
      <label className="adm-field">
        <span>{t('content.titleField')}</span>
        <input name="title" value={draft.title} onChange={(e) => content.change('title', e.target.value)} required maxLength={200} />
      </label>
      <label className="adm-field">
        <span>{t('content.category')}</span>
        <select name="category_id" value={draft.category_id} onChange={(e) => content.change('category_id', Number(e.target.value))}>
          {content.categories.data?.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
        </select>
      </label>
      <label className="adm-field">
        <span>{t('content.banner')}</span>
        <input name="banner" value={draft.banner} onChange={(e) => content.change('banner', e.target.value)} maxLength={255} />
      </label>
      <label className="adm-field">
        <span>{t('content.sort')}</span>
        <input name="sort" type="number" value={draft.sort} onChange={(e) => content.change('sort', Number(e.target.value) || 0)} />
      </label>
      <div className="adm-two">
        <label className="adm-field">
          <span>{t('content.body')}</span>
          <textarea name="content" rows={14} value={draft.content} onChange={(e) => content.change('content', e.target.value)} />
        </label>
        <div className="adm-field">
          <span>{t('content.preview')}</span>
          <div className="adm-preview" data-testid="notice-preview" dangerouslySetInnerHTML={{ __html: preview }} />
        </div>
      </div>
      <div className="adm-actions">
        <button type="button" onClick={content.close}>{t('common.cancel')}</button>
        <button type="submit" className="adm-primary">{t('common.save')}</button>
      </div>
    </form>
  );
});

const Settings = observer(function Settings() {
  const { t } = useTranslation('admin');
  const { content } = useAdmin();
  return (
    <Loaded resource={content.settings}>
      {(rows) => (
        <table className="adm-table">
          <tbody>
            {rows.map((s) => (
              <tr key={s.key}>
                <td><code>{s.key}</code><br /><small className="adm-muted">{s.takes}</small></td>
                <td>
                  <input name={`setting-${s.key}`} value={content.settingValues[s.key] ?? ''}
                    onChange={(e) => content.setSetting(s.key, e.target.value)} />
                </td>
                <td><button type="button" onClick={() => content.saveSetting(s.key)}>{t('common.save')}</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Loaded>
  );
});

/** The content role's notices by category, the editor with a live sanitised preview, site settings. */
export const ContentPage = observer(function ContentPage() {
  const { t } = useTranslation('admin');
  const { content } = useAdmin();
  const [deleting, setDeleting] = useState<number | null>(null);
  useEffect(() => {
    void content.categories.load();
    void content.notices.load();
    void content.settings.load();
  }, [content]);
  const categoryName = (id: number) => content.categories.data?.find((c) => c.id === id)?.name ?? id;

  return (
    <>
      {content.error && <p className="adm-error" role="alert">{content.error}</p>}
      {content.saved && <p className="adm-ok" role="status">{t('content.saved')}</p>}
      <h2>{t('content.notices')}</h2>
      <div className="adm-filters">
        <label>
          {t('content.category')}{' '}
          <select name="category" value={content.categoryId} onChange={(e) => content.setCategory(Number(e.target.value))}>
            <option value={0}>{t('content.all')}</option>
            {content.categories.data?.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
          </select>
        </label>
        <button type="button" className="adm-primary" disabled={!content.canAdd} onClick={() => content.edit(null)}>
          {t('content.add')}
        </button>
      </div>
      {content.draft && <Editor />}
      <Loaded resource={content.notices} empty={(d) => d.length === 0}>
        {(rows) => (
          <table className="adm-table">
            <tbody>
              {rows.map((n) => (
                <tr key={n.id} data-testid={`notice-${n.id}`}>
                  <td>{n.id}</td>
                  <td>{n.title}</td>
                  <td>{categoryName(n.category_id)}</td>
                  <td>{n.created_at.slice(0, 10)}</td>
                  <td className="adm-actions">
                    <button type="button" onClick={() => content.edit(n)}>{t('content.edit')}</button>
                    <button type="button" className="adm-danger" onClick={() => setDeleting(n.id)}>{t('common.delete')}</button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Loaded>
      {deleting !== null && (
        <ConfirmDialog message={t('content.confirmDelete')} onCancel={() => setDeleting(null)}
          onConfirm={() => { void content.remove(deleting); setDeleting(null); }} />
      )}
      <h2>{t('content.settings')}</h2>
      <Settings />
    </>
  );
});
