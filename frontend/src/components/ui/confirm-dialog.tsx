/**
 * The confirm dialog of an order (lever, second): what will be sent as label / value rows, then
 * cancel and a confirm button in the order's colour. Test ids: `{testId}`, `{testId}-{row key}`,
 * `{testId}-cancel` and `{testId}-ok`.
 */
import type { ReactNode } from 'react';

import { Dialog } from './dialog';

export interface SummaryRow {
  key: string;
  label: string;
  value: ReactNode;
  /** The value's class (`num` by default: right-aligned figures). */
  className?: string;
}

/** Label / value rows; each value's test id is `{testIdPrefix}-{key}`. */
export function Summary({ rows, testIdPrefix }: { rows: readonly SummaryRow[]; testIdPrefix: string }) {
  return (
    <dl className="dialog-summary">
      {rows.map((row) => (
        <div key={row.key}>
          <dt className="muted">{row.label}</dt>
          <dd className={row.className ?? 'num'} data-testid={`${testIdPrefix}-${row.key}`}>
            {row.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function ConfirmDialog({
  title,
  testId,
  rows,
  tone,
  busy,
  labels,
  onConfirm,
  onCancel,
  children,
}: {
  title: string;
  testId: string;
  rows: readonly SummaryRow[];
  /** The confirm button's colour: buy (green) or sell (red). */
  tone: 'buy' | 'sell';
  /** Sending: the confirm button is disabled and says so. */
  busy: boolean;
  labels: { ok: string; cancel: string; busy: string };
  onConfirm: () => void;
  onCancel: () => void;
  /** Notes under the rows (a hint, the server's refusal). */
  children?: ReactNode;
}) {
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      testId={testId}
      actions={
        <>
          <button type="button" className="tp-button ghost" onClick={onCancel} data-testid={`${testId}-cancel`}>
            {labels.cancel}
          </button>
          <button type="button" className={`tp-button ${tone}`} disabled={busy} onClick={onConfirm} data-testid={`${testId}-ok`}>
            {busy ? labels.busy : labels.ok}
          </button>
        </>
      }
    >
      <Summary rows={rows} testIdPrefix={testId} />
      {children}
    </Dialog>
  );
}
