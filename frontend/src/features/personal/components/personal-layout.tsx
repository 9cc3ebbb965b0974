import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { SideMenuLayout } from '@/components/layout/side-menu';
import { paths } from '@/config/paths';

import '@/components/form/form.css';
import '../i18n';
import '../personal.css';

/** The personal centre's left menu (spec: account, authentication, feedback, bind address). */
export function PersonalLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('personal');
  const items = [
    { to: paths.personal.accountSettings, label: t('menu.account') },
    { to: paths.personal.authentication, label: t('menu.authentication') },
    { to: paths.personal.collectionSettings, label: t('menu.collection') },
    { to: paths.personal.feedback, label: t('menu.feedback') },
    { to: paths.personal.bindAddr, label: t('menu.bindAddr') },
  ];
  return (
    <SideMenuLayout items={items} title={t('menu.title')}>
      {children}
    </SideMenuLayout>
  );
}

/** A titled form card. */
export function FormCard({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <section className="panel personal-card" data-testid={testId}>
      <div className="panel-head">
        <h2>{title}</h2>
      </div>
      {children}
    </section>
  );
}
