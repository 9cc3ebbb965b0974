import type { FormEvent, ReactNode } from 'react';

import { FormError } from '@/components/form/form-error';

/**
 * The centred card of an access page: the title, the fields, the validation message, the submit
 * button (disabled while busy) and the link to the other access pages below it.
 */
export function AuthCard({
  title,
  testId,
  onSubmit,
  error,
  busy,
  submitLabel,
  footer,
  children,
}: {
  title: string;
  testId: string;
  onSubmit: (event: FormEvent) => void;
  error: string | null;
  busy: boolean;
  submitLabel: string;
  footer: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="auth-page">
      <form className="auth-card" onSubmit={onSubmit} noValidate data-testid={testId}>
        <h1>{title}</h1>
        {children}
        <FormError message={error} />
        <button type="submit" className="button block large" disabled={busy} data-testid="submit">
          {submitLabel}
        </button>
        <p className="auth-switch muted">{footer}</p>
      </form>
    </div>
  );
}
