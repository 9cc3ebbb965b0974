/**
 * Small pieces every earn screen uses: the state of a read (loading, failed with a retry, nothing
 * found), label / value facts, a status tag, an amount field with an All button, and the
 * confirmation dialog of a purchase or a cancellation.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { Summary, type SummaryRow } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { ReadState as SharedReadState } from '@/components/ui/read-state';

import type { Loadable } from '@/lib/loadable';

import '../i18n';

/** The shared read state (loading, failed with a retry, empty) in this section's texts and test ids. */
export function ReadState(props: { resource: Loadable<unknown>; empty?: boolean; whenEmpty?: ReactNode }) {
  const { t } = useTranslation('earn');
  const texts = {
    loading: t('common.loading'),
    loadFailed: t('common.loadFailed'),
    retry: t('common.retry'),
    empty: t('common.empty'),
  };
  return <SharedReadState {...props} texts={texts} testIdPrefix="earn" />;
}

export interface Fact {
  key: string;
  label: ReactNode;
  value: ReactNode;
  className?: string;
}

/** Label / value pairs in a grid; each value's test id is `{prefix}-{key}`. */
export function Facts({ facts, testIdPrefix, className = '' }: { facts: readonly Fact[]; testIdPrefix: string; className?: string }) {
  return (
    <dl className={`earn-facts ${className}`.trim()}>
      {facts.map((f) => (
        <div key={f.key}>
          <dt className="muted">{f.label}</dt>
          <dd className={f.className ?? 'num'} data-testid={`${testIdPrefix}-${f.key}`}>
            {f.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export type Tone = 'open' | 'soon' | 'done' | 'bad';

/** A coloured tag: open (green), soon (accent), done (grey), bad (red). */
export function StatusTag({ tone, children, testId }: { tone: Tone; children: ReactNode; testId?: string }) {
  return (
    <span className={`earn-tag ${tone}`} data-testid={testId} data-tone={tone}>
      {children}
    </span>
  );
}

/** An amount input with its unit and an All button (which fills in what the caller says "all" is). */
export function AmountField({
  label,
  value,
  unit,
  placeholder,
  onChange,
  onAll,
  testId,
}: {
  label: string;
  value: string;
  unit: string;
  placeholder?: string;
  onChange: (text: string) => void;
  onAll?: () => void;
  testId: string;
}) {
  const { t } = useTranslation('earn');
  return (
    <label className="field earn-amount">
      <span>{label}</span>
      <span className="earn-amount-row">
        <input className="input" inputMode="decimal" value={value} placeholder={placeholder}
          onChange={(e) => onChange(e.target.value)} data-testid={testId} />
        <span className="earn-unit muted">{unit}</span>
        {onAll && (
          <button type="button" className="button ghost small" onClick={onAll} data-testid={`${testId}-all`}>
            {t('common.all')}
          </button>
        )}
      </span>
    </label>
  );
}

/** "Are you sure?" with what will happen as label / value rows. Test ids `{testId}`, `-ok`, `-cancel`. */
export function ConfirmPrompt({
  title,
  rows,
  busy,
  onConfirm,
  onCancel,
  testId,
  children,
  danger = false,
}: {
  title: string;
  rows: readonly SummaryRow[];
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  testId: string;
  children?: ReactNode;
  /** The confirm button warns (a cancellation that costs a penalty). */
  danger?: boolean;
}) {
  const { t } = useTranslation('earn');
  return (
    <Dialog title={title} onClose={onCancel} testId={testId}
      actions={
        <>
          <button type="button" className="button ghost" onClick={onCancel} data-testid={`${testId}-cancel`}>
            {t('common.cancel')}
          </button>
          <button type="button" className={danger ? 'button danger' : 'button'} disabled={busy} onClick={onConfirm}
            data-testid={`${testId}-ok`}>
            {busy ? t('common.sending') : t('common.confirm')}
          </button>
        </>
      }>
      <Summary rows={rows} testIdPrefix={testId} />
      {children}
    </Dialog>
  );
}
