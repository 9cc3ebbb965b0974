/**
 * A modal dialog of the trading screens (lever, second): a titled box over a dimmed page; Escape,
 * the close button or the backdrop cancels. The first field or button inside takes the focus, and
 * the focus goes back where it was when the dialog closes.
 */
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { CloseIcon } from '@/components/icons';

import './dialog.css';

export function Dialog({
  title,
  onClose,
  testId,
  children,
  actions,
  wide = false,
}: {
  title: string;
  onClose: () => void;
  testId: string;
  children: ReactNode;
  /** The buttons at the bottom. */
  actions: ReactNode;
  /** Room for a table (e.g. a proof's ticks). */
  wide?: boolean;
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
    box.current?.querySelector<HTMLElement>('input, button:not(.dialog-x)')?.focus();
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
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={box} className={wide ? 'dialog wide' : 'dialog'} role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid={testId}>
        <div className="dialog-head">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button dialog-x" aria-label={t('common.close')} onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        <div className="dialog-body">{children}</div>
        <div className="dialog-actions">{actions}</div>
      </div>
    </div>
  );
}
