/**
 * The order and position tables of the trading screens: a column list (head, cell, alignment), one
 * row per item. Test ids: the table's, each row's (with its data-* attributes) and `{cellPrefix}-{key}`
 * on each cell.
 */
import { observer } from 'mobx-react-lite';
import type { Key, ReactNode } from 'react';

export interface TableColumn<T> {
  key: string;
  head: ReactNode;
  /** Right-aligned figures. */
  num?: boolean;
  /** A class of its own instead (e.g. `act` for buttons). */
  className?: string;
  cell: (row: T) => ReactNode;
}

function Table<T>({
  testId,
  columns,
  rows,
  rowKey,
  rowAttributes,
  cellPrefix,
}: {
  testId: string;
  columns: readonly TableColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => Key;
  /** The row's data-testid and data-* attributes. */
  rowAttributes: (row: T) => Record<string, string | number>;
  cellPrefix: string;
}) {
  const className = (c: TableColumn<T>) => c.className ?? (c.num ? 'num' : undefined);
  return (
    <div className="tp-table-wrap">
      <table className="tp-table" data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} className={className(c)}>
                {c.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowAttributes(row)}>
              {columns.map((c) => (
                <td key={c.key} className={className(c)} data-testid={`${cellPrefix}-${c.key}`}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** An observer: cells read live values (marks, countdowns) that change without the rows changing. */
export const ColumnsTable = observer(Table) as typeof Table;
