/** A modal dialog of the lever screen: a titled box over a dimmed page; Escape or the backdrop cancels. */
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { CloseIcon } from '@/components/icons';

export function Dialog({
  title,
  onClose,
  testId,
  children,
  actions,
}: {
  title: string;
  onClose: () => void;
  testId: string;
  children: ReactNode;
  /** The buttons at the bottom. */
  actions: ReactNode;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    box.current?.querySelector<HTMLElement>('input, button:not(.lv-dialog-x)')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      before?.focus?.();
    };
  }, []);

  return (
    <div className="lv-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={box} className="lv-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid={testId}>
        <div className="lv-dialog-head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button lv-dialog-x" aria-label={t('common.close')} onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <div className="lv-dialog-body">{children}</div>
        <div className="lv-dialog-actions">{actions}</div>
      </div>
    </div>
  );
}
