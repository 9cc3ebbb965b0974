/** A labelled figure field of the trading forms (amount, stake, a stop price): the label, the typed decimal and its unit. */
export function UnitField({
  label,
  unit,
  value,
  onChange,
  testId,
  placeholder,
}: {
  label: string;
  unit?: string;
  value: string;
  /** The typed text (the store keeps what its rules allow of it). */
  onChange: (text: string) => void;
  testId: string;
  placeholder?: string;
}) {
  return (
    <label className="tp-field">
      <span className="tp-field-label">{label}</span>
      <input
        className="tp-input num"
        inputMode="decimal"
        autoComplete="off"
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
      {unit && <span className="tp-unit">{unit}</span>}
    </label>
  );
}
