import { useTranslation } from 'react-i18next';
import '../i18n';

/** A currency select; `testId` names it for the browser tests. */
export function CurrencyPicker({
  options,
  value,
  onChange,
  testId,
  allLabel,
}: {
  options: { id: number; code: string }[];
  value: number | null;
  onChange: (id: number | null) => void;
  testId: string;
  /** When given, an "all currencies" entry comes first. */
  allLabel?: string;
}) {
  const { t } = useTranslation('wallet');
  return (
    <label className="field inline-field">
      <span>{t('common.currency')}</span>
      <select className="input" value={value ?? ''} data-testid={testId}
        onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}>
        {allLabel !== undefined && <option value="">{allLabel}</option>}
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.code}
          </option>
        ))}
      </select>
    </label>
  );
}
