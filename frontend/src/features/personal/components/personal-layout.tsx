import { observer } from 'mobx-react-lite';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { SideMenuLayout } from '@/components/layout/side-menu';
import { LoadFailed as SharedLoadFailed } from '@/components/ui/load-failed';
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

/** What a page reads when it opens: the page offers a retry when that failed. */
interface Loadable {
  status: 'idle' | 'loading' | 'ready' | 'error';
  load(): Promise<unknown>;
}

/** "This could not be loaded" with a retry, in the personal centre's words. */
export function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('personal');
  return <SharedLoadFailed message={t('common.loadFailed')} retryLabel={t('common.retry')} onRetry={onRetry} />;
}

/**
 * A personal-centre page of one titled card beside the menu. With `loader`, the card starts with
 * "could not be loaded, retry" while the loader's last load failed.
 */
export const PersonalFormPage = observer(function PersonalFormPage({
  title,
  testId,
  loader,
  children,
}: {
  title: string;
  testId: string;
  loader?: Loadable;
  children: ReactNode;
}) {
  return (
    <PersonalLayout>
      <section className="panel personal-card" data-testid={testId}>
        <div className="panel-head">
          <h2>{title}</h2>
        </div>
        {loader?.status === 'error' && <LoadFailed onRetry={() => void loader.load()} />}
        {children}
      </section>
    </PersonalLayout>
  );
});

/** A form of the personal centre: submitting runs `onSubmit` in place of the browser's submit. */
export function PersonalForm({
  testId,
  onSubmit,
  children,
}: {
  testId: string;
  onSubmit: () => Promise<unknown>;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onSubmit();
  };
  return (
    <form className="personal-form" onSubmit={submit} noValidate data-testid={testId}>
      {children}
    </form>
  );
}
