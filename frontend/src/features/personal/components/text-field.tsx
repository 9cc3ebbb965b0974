import type { ReactNode } from 'react';

/** A labelled input of the personal forms. */
export function TextField({
  label,
  value,
  onChange,
  testId,
  type = 'text',
  placeholder,
  maxLength,
  autoComplete,
  after,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  type?: 'text' | 'password' | 'email';
  placeholder?: string;
  maxLength?: number;
  autoComplete?: string;
  after?: ReactNode;
}) {
  const input = (
    <input className="input" type={type} value={value} placeholder={placeholder} maxLength={maxLength}
      autoComplete={autoComplete} onChange={(e) => onChange(e.target.value)} data-testid={testId} />
  );
  return (
    <label className="field">
      <span>{label}</span>
      {after ? (
        <div className="input-group">
          {input}
          {after}
        </div>
      ) : (
        input
      )}
    </label>
  );
}
