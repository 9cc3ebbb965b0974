/** The form state the three access pages (login, register, forgotten password) share, kept out of their JSX. */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { isApiError } from '@/lib/api-client';
import type { ValidationKey } from '@/lib/validation';

/** The validation message and the busy flag of an access form. */
export function useAuthForm() {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** Shows `problem` (or clears the message); true when there is none. */
  const check = (problem: ValidationKey | null): boolean => {
    setError(problem ? t(`validation.${problem}`) : null);
    return problem === null;
  };

  /**
   * Runs `action` when `problem` is null and no other run is under way. API errors end the run
   * quietly (the request layer has shown them); anything else is rethrown.
   */
  const run = async (problem: ValidationKey | null, action: () => Promise<void>): Promise<void> => {
    if (!check(problem) || busy) return;
    setBusy(true);
    try {
      await action();
    } catch (e) {
      if (!isApiError(e)) throw e;
    } finally {
      setBusy(false);
    }
  };

  return { error, busy, check, clear: () => setError(null), run };
}
