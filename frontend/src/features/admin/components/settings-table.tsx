/**
 * The markets and products roles' settings tables (currencies, pairs, earn products), written once:
 * the table of rows with their switches and an edit button, the confirmation that asks the operator
 * for a reason before a switch is sent, the edit form opened under its row with the reason to save,
 * and under the actions what became of the row's last change. The class names are admin.css's and
 * the test ids the browser tests'.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import type { ChangeState } from '../stores/settings-form';
import type { Resource } from '../stores/resource';
import { ConfirmDialog } from './confirm-dialog';
import { Loaded } from './shared';

/** A switch a row asks to confirm: the question, and what to send with the reason typed. */
export interface Ask {
  message: string;
  confirm: (reason: string) => void;
}

/**
 * The rows of `resource` in one table under `head` (its header cells); a row asks for a confirmed
 * switch through `ask`, which opens the reason dialog.
 */
export function SettingsTable<T>({ resource, head, row, testId }: {
  resource: Resource<T[]>;
  head: ReactNode;
  row: (item: T, ask: (question: Ask) => void) => ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation('admin');
  const [asked, setAsked] = useState<Ask | null>(null);
  return (
    <>
      <Loaded resource={resource} empty={(d) => d.length === 0}>
        {(rows) => (
          <div className="adm-scroll">
            <table className="adm-table adm-markets" data-testid={testId}>
              <thead>
                <tr>{head}</tr>
              </thead>
              <tbody>{rows.map((item) => row(item, setAsked))}</tbody>
            </table>
          </div>
        )}
      </Loaded>
      {asked && (
        <ConfirmDialog
          message={asked.message}
          withText={t('common.reason')}
          required
          onCancel={() => setAsked(null)}
          onConfirm={(reason) => {
            setAsked(null);
            asked.confirm(reason);
          }}
        />
      )}
    </>
  );
}

/** One row: its cells, the actions with the outcome of the last change under them, then `form` when it is edited. */
export function SettingsRow({ testId, editing, cells, actions, outcome, after, form }: {
  testId: string;
  editing: boolean;
  cells: ReactNode;
  actions: ReactNode;
  outcome: ReactNode;
  /** Cells after the actions (a wide table's terms). */
  after?: ReactNode;
  form?: ReactNode;
}) {
  return (
    <>
      <tr data-testid={testId} className={editing ? 'adm-selected' : ''}>
        {cells}
        <td>
          <div className="adm-decide">{actions}</div>
          {outcome}
        </td>
        {after}
      </tr>
      {form}
    </>
  );
}

/** The edit form under its row, across the table: the fields, then the reason it is saved with. */
export function EditRow({ columns, testId, section, title, note, children, error, unchanged, sending, onCancel, onSave }: {
  columns: number;
  testId: string;
  /** Which part of the row is edited (the pair's limits, lever or second-contract terms). */
  section?: string;
  title: string;
  note?: string;
  children: ReactNode;
  error: string | undefined;
  unchanged: boolean;
  sending: boolean;
  onCancel: () => void;
  onSave: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(reason.trim());
  };
  return (
    <tr>
      <td colSpan={columns}>
        <form className="adm-card adm-form" data-testid={testId} data-section={section} onSubmit={submit}>
          <h2>{title}</h2>
          {note && <p className="adm-muted">{note}</p>}
          {children}
          <ReasonAndSave reason={reason} onReason={setReason} error={error} unchanged={unchanged} sending={sending} onCancel={onCancel} />
        </form>
      </td>
    </tr>
  );
}

/** A settings form's end: the reason (required to save), the server's refusal, cancel and save. */
function ReasonAndSave({ reason, onReason, error, unchanged, sending, onCancel }: {
  reason: string;
  onReason: (text: string) => void;
  error: string | undefined;
  unchanged: boolean;
  sending: boolean;
  onCancel: () => void;
}) {
  const { t } = useTranslation('admin');
  return (
    <>
      <label className="adm-field">
        <span>{t('common.reason')}</span>
        <input name="reason" value={reason} onChange={(e) => onReason(e.target.value)} maxLength={500} />
      </label>
      {error && <p className="adm-error" role="alert">{error}</p>}
      <div className="adm-actions">
        <button type="button" onClick={onCancel}>{t('common.cancel')}</button>
        <button type="submit" className="adm-primary" title={unchanged ? t('markets.unchanged') : t('common.reasonRequired')}
          disabled={unchanged || !reason.trim() || sending}>
          {t('common.save')}
        </button>
      </div>
    </>
  );
}

/** Under a row's actions: what became of its last change (`saved` the text when it was taken). */
export function RowOutcome({ state, saved, error, testId }: {
  state: ChangeState;
  saved: string;
  error: string | undefined;
  /** `<prefix>-saved-<id>` and `<prefix>-error-<id>` for the tests. */
  testId: (what: 'saved' | 'error') => string;
}) {
  if (state === 'saved' || state === 'saved_later') {
    return <p className="adm-ok" role="status" data-testid={testId('saved')}>{saved}</p>;
  }
  if (state === 'failed') return <p className="adm-error" role="alert" data-testid={testId('error')}>{error}</p>;
  return null;
}
