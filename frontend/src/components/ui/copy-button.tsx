import { useTranslation } from 'react-i18next';

import { copyText } from '@/lib/clipboard';
import { useStores } from '@/stores/root-store';

/** Copies `text` and says so: "Copied" or "Copy failed, please copy it by hand" (spec §8). */
export function CopyButton({ text, testId = 'copy' }: { text: string; testId?: string }) {
  const { t } = useTranslation();
  const { ui } = useStores();
  const copy = async () => {
    if (await copyText(text)) ui.toast('success', t('copy.done'));
    else ui.toast('error', t('copy.failed'));
  };
  return (
    <button type="button" className="button small ghost" disabled={!text} onClick={() => void copy()}
      data-testid={testId}>
      {t('copy.action')}
    </button>
  );
}
