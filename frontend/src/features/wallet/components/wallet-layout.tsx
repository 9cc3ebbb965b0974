import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { SideMenuLayout } from '@/components/layout/side-menu';
import { LoadFailed as SharedLoadFailed } from '@/components/ui/load-failed';
import { paths } from '@/config/paths';

import '../i18n';
import '../wallet.css';

/** The assets area's left menu (spec: deposit, withdraw, trade, leverage and micro accounts, transfer). */
export function WalletLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('wallet');
  const items = [
    { to: paths.assets.chongzhi, label: t('menu.deposit') },
    { to: paths.assets.withdral, label: t('menu.withdraw') },
    { to: paths.assets.tradeAccount, label: t('menu.trade') },
    { to: paths.assets.legalAccount, label: t('menu.legal') },
    { to: paths.assets.leverAccount, label: t('menu.lever') },
    { to: paths.assets.secondAccount, label: t('menu.micro') },
    { to: paths.assets.financialAccount, label: t('menu.financial') },
    { to: paths.assets.transfer, label: t('menu.transfer') },
    { to: paths.assets.dealRecords, label: t('menu.records') },
  ];
  return (
    <SideMenuLayout items={items} title={t('menu.title')}>
      {children}
    </SideMenuLayout>
  );
}

/** The message shown when a list could not be read, with a retry. */
export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('wallet');
  return (
    <SharedLoadFailed message={t('common.loadFailed')} retryLabel={t('common.retry')} onRetry={onRetry}
      testId="load-failed" />
  );
}
