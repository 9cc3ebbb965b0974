/** A row of tabs (the app's `.tabs` / `.tab` look): the earn lists' status filters. */
export interface EarnTab<K extends string | number> {
  key: K;
  label: string;
  testId: string;
}

export function Tabs<K extends string | number>({
  tabs,
  active,
  onSelect,
  label,
}: {
  tabs: readonly EarnTab<K>[];
  active: K;
  onSelect: (key: K) => void;
  label: string;
}) {
  return (
    <div className="tabs earn-tabs" role="tablist" aria-label={label}>
      {tabs.map((tab) => (
        <button key={tab.key} type="button" role="tab" aria-selected={tab.key === active}
          className={tab.key === active ? 'tab active' : 'tab'} onClick={() => onSelect(tab.key)} data-testid={tab.testId}>
          {tab.label}
        </button>
      ))}
    </div>
  );
}
