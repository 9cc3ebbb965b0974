import { useCallback, useEffect, useState } from 'react';

import { apiClient } from '@/lib/api-client';

import type { QuoteGroup } from '../types';

export async function getCurrencyMatches(signal?: AbortSignal): Promise<QuoteGroup[]> {
  const data = await apiClient.get<QuoteGroup[]>('market/currency_matches', { signal });
  return Array.isArray(data) ? data : [];
}

export type CurrencyMatchesState =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'success'; groups: QuoteGroup[] };

/** Loads the market pairs once on mount; `reload()` fetches them again. */
export function useCurrencyMatches() {
  const [state, setState] = useState<CurrencyMatchesState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    getCurrencyMatches(controller.signal).then(
      (groups) => setState({ status: 'success', groups }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', error });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, reload };
}
