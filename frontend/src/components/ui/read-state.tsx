/**
 * What a screen shows instead of its content while `resource` has nothing to show: loading, the
 * failure (the server's message when it gave one) with a retry, or `whenEmpty` for an empty answer.
 * Each feature passes its own texts and test-id prefix (`<prefix>-loading`, `-load-failed`, `-empty`).
 */
import { observer } from 'mobx-react-lite';
import type { ReactNode } from 'react';

import { LoadFailed } from '@/components/ui/load-failed';
import type { Loadable } from '@/lib/loadable';

export interface ReadStateTexts {
  loading: string;
  loadFailed: string;
  retry: string;
  empty: string;
}

export const ReadState = observer(function ReadState({
  resource,
  empty = false,
  whenEmpty,
  texts,
  testIdPrefix,
}: {
  resource: Loadable<unknown>;
  /** The answer came and has nothing to list. */
  empty?: boolean;
  whenEmpty?: ReactNode;
  texts: ReadStateTexts;
  testIdPrefix: string;
}) {
  if (resource.failed) {
    return (
      <LoadFailed message={resource.error ?? texts.loadFailed} retryLabel={texts.retry}
        onRetry={() => void resource.load()} testId={`${testIdPrefix}-load-failed`} />
    );
  }
  if (resource.data === null) {
    return (
      <p className="empty muted" data-testid={`${testIdPrefix}-loading`}>
        {texts.loading}
      </p>
    );
  }
  if (empty) {
    return (
      <div className="empty muted" data-testid={`${testIdPrefix}-empty`}>
        {whenEmpty ?? texts.empty}
      </div>
    );
  }
  return null;
});
