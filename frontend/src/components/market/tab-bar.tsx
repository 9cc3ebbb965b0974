/** A row of tabs of the trading screens (modes, periods, quote currencies, list views). */
import type { ReactNode } from 'react';

export interface Tab<K extends string | number> {
  key: K;
  label: ReactNode;
  testId?: string;
  /** Extra classes (e.g. `buy`, `sell`). */
  className?: string;
}

export function TabBar<K extends string | number>({
  tabs,
  active,
  onSelect,
  className = '',
}: {
  tabs: readonly Tab<K>[];
  active: K | null | undefined;
  onSelect: (key: K) => void;
  className?: string;
}) {
  return (
    <div className={`tp-tabs ${className}`.trim()} role="tablist">
      {tabs.map((tab) => (
        <button
          key={tab.key}
          type="button"
          role="tab"
          aria-selected={tab.key === active}
          className={['tp-tab', tab.className, tab.key === active ? 'active' : ''].filter(Boolean).join(' ')}
          onClick={() => onSelect(tab.key)}
          data-testid={tab.testId}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
