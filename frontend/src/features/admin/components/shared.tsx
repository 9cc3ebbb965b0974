import { observer } from 'mobx-react-lite';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { Resource } from '../stores/resource';

/** Loading, error and empty states around a resource's table. */
export const Loaded = observer(function Loaded<T>({
  resource,
  empty,
  children,
}: {
  resource: Resource<T>;
  empty?: (data: T) => boolean;
  children: (data: T) => React.ReactNode;
}) {
  const { t } = useTranslation('admin');
  if (resource.error) return <p className="adm-error">{resource.error}</p>;
  if (!resource.data) return <p className="adm-muted">{t('common.loading')}</p>;
  if (empty?.(resource.data)) return <p className="adm-muted">{t('common.empty')}</p>;
  return <>{children(resource.data)}</>;
});

export function Amounts({ values }: { values: Record<string, string> }) {
  const entries = Object.entries(values);
  if (!entries.length) return <span className="adm-muted">—</span>;
  return (
    <span className="adm-amounts">
      {entries.map(([k, v]) => (
        <span key={k}>
          {k}: <b>{v}</b>
        </span>
      ))}
    </span>
  );
}

export function Images({ urls, alt }: { urls: string[]; alt: string[] }) {
  return (
    <div className="adm-images">
      {urls.map((url, i) => (
        <figure key={i}>
          {url ? (
            <a href={url} target="_blank" rel="noopener noreferrer">
              <img src={url} alt={alt[i] ?? ''} />
            </a>
          ) : (
            <div className="adm-noimage">—</div>
          )}
          <figcaption>{alt[i] ?? ''}</figcaption>
        </figure>
      ))}
    </div>
  );
}

/** Previous and next around "page n of last", for a store with `page`, `lastPage` and `setPage`. */
export const Pager = observer(function Pager({ of }: { of: { page: number; lastPage: number; setPage: (page: number) => void } }) {
  const { t } = useTranslation('admin');
  return (
    <div className="adm-pager">
      <button type="button" disabled={of.page <= 1} onClick={() => of.setPage(of.page - 1)}>{t('common.prev')}</button>
      <span>{t('common.page', { page: of.page, last: of.lastPage })}</span>
      <button type="button" disabled={of.page >= of.lastPage} onClick={() => of.setPage(of.page + 1)}>{t('common.next')}</button>
    </div>
  );
});

export function formatMs(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

/**
 * A queue row's decision: a reason, approve, and reject (which needs the reason). `approveBlocked` says
 * why approving is not possible now (the button is disabled with it as its title).
 */
export function Decide({ busy, approveBlocked, onDecide }: {
  busy: boolean;
  approveBlocked?: string;
  onDecide: (approve: boolean, reason: string) => void;
}) {
  const { t } = useTranslation('admin');
  const [reason, setReason] = useState('');
  return (
    <div className="adm-decide">
      <input name="reason" placeholder={t('common.reason')} value={reason} onChange={(e) => setReason(e.target.value)} />
      <button type="button" className="adm-primary" disabled={busy || Boolean(approveBlocked)} title={approveBlocked}
        onClick={() => onDecide(true, reason.trim())}>
        {t('common.approve')}
      </button>
      <button type="button" className="adm-danger" disabled={busy || !reason.trim()} title={t('common.reasonRequired')}
        onClick={() => onDecide(false, reason.trim())}>
        {t('common.reject')}
      </button>
    </div>
  );
}
