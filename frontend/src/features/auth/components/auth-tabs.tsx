import { useTranslation } from 'react-i18next';

import type { AccountKind } from '@/lib/validation';

/** E-mail / phone tabs of the access forms. */
export function AuthTabs({ kind, onChange }: { kind: AccountKind; onChange: (kind: AccountKind) => void }) {
  const { t } = useTranslation();
  const tabs: { kind: AccountKind; label: string }[] = [
    { kind: 'email', label: t('auth.emailTab') },
    { kind: 'mobile', label: t('auth.phoneTab') },
  ];
  return (
    <div className="auth-tabs" role="tablist">
      {tabs.map((tab) => (
        <button key={tab.kind} type="button" role="tab" aria-selected={tab.kind === kind}
          className={tab.kind === kind ? 'auth-tab active' : 'auth-tab'} data-testid={`tab-${tab.kind}`}
          onClick={() => onChange(tab.kind)}>
          {tab.label}
        </button>
      ))}
    </div>
  );
}
