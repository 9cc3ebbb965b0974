import { observer } from 'mobx-react-lite';
import { useEffect, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { useAdmin } from '../stores/admin-store';
import type { AuditFilters } from '../stores/audit-store';
import { formatMs, Loaded, Pager } from './shared';

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

/** The admin role's audit trail: filters, pages, and the filtered rows as a CSV file. */
export const AuditPage = observer(function AuditPage() {
  const { t } = useTranslation('admin');
  const { audit } = useAdmin();
  useEffect(() => void audit.trail.load(), [audit]);

  const field = (key: keyof AuditFilters, type = 'text') => (
    <label className="adm-field">
      <span>{t(`audit.${key}`)}</span>
      <input name={key} type={type} value={audit.draft[key]} onChange={(e) => audit.setDraft(key, e.target.value)} />
    </label>
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    audit.apply();
  };
  const exportCsv = async () => {
    const blob = await audit.exportCsv();
    if (blob) save(blob, 'audit.csv');
  };

  return (
    <>
      <form className="adm-filters" onSubmit={submit}>
        {field('operator')}
        {field('action')}
        {field('target')}
        {field('since', 'date')}
        {field('until', 'date')}
        <button type="submit" className="adm-primary">{t('audit.apply')}</button>
        <button type="button" onClick={audit.reset}>{t('audit.reset')}</button>
        <button type="button" onClick={exportCsv}>{t('audit.export')}</button>
      </form>
      {audit.exportError && <p className="adm-error" role="alert">{audit.exportError}</p>}
      <Loaded resource={audit.trail}>
        {(d) => (
          <>
            <p className="adm-muted">{t('audit.total', { count: d.total })}</p>
            <table className="adm-table adm-audit">
              <thead>
                <tr>
                  <th>{t('audit.time')}</th>
                  <th>{t('audit.operator')}</th>
                  <th>{t('audit.role')}</th>
                  <th>{t('audit.action')}</th>
                  <th>{t('audit.target')}</th>
                  <th>{t('audit.before')}</th>
                  <th>{t('audit.after')}</th>
                  <th>{t('audit.reason')}</th>
                  <th>{t('audit.address')}</th>
                </tr>
              </thead>
              <tbody>
                {d.list.map((r) => (
                  <tr key={r.id} data-action={r.action}>
                    <td>{formatMs(r.at_ms)}</td>
                    <td>{r.operator}</td>
                    <td>{r.role}</td>
                    <td><code>{r.action}</code></td>
                    <td>{r.target}</td>
                    <td className="adm-break"><small>{json(r.before)}</small></td>
                    <td className="adm-break"><small>{json(r.after)}</small></td>
                    <td>{r.reason}</td>
                    <td>{r.address}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager of={audit} />
          </>
        )}
      </Loaded>
    </>
  );
});
