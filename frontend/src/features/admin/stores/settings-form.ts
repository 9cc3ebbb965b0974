import { runInAction } from 'mobx';

import { messageOf, type Resource } from './resource';

/** What became of the last change to a row, for the row's message. */
export type ChangeState = 'idle' | 'sending' | 'saved' | 'saved_later' | 'failed';

/** Where a settings screen keeps each row's last change: its state and the server's refusal. */
export interface ChangeTracking {
  states: Map<number, ChangeState>;
  errors: Map<number, string>;
}

/** A row's `fields` as the form's text inputs. */
export function draftOf<F extends string>(row: Record<F, unknown>, fields: readonly F[]): Record<F, string> {
  return Object.fromEntries(fields.map((k) => [k, String(row[k])])) as Record<F, string>;
}

/**
 * The draft's fields that differ from the row as last read, as the server takes them: a field in
 * `integers` typed as digits goes as a number; anything else as typed (trimmed), for the server to
 * refuse with its message.
 */
export function changedFields<F extends string>(
  row: Record<F, unknown>,
  draft: Partial<Record<F, string>>,
  fields: readonly F[],
  integers: ReadonlySet<string> = new Set(),
): Record<string, string | number> {
  const changed: Record<string, string | number> = {};
  for (const field of fields) {
    const text = (draft[field] ?? '').trim();
    if (text === String(row[field])) continue;
    changed[field] = integers.has(field) && /^\d+$/.test(text) ? Number(text) : text;
  }
  return changed;
}

/**
 * Sends one row's change and puts the server's answer (the row's new view) in its place; `applied_live`
 * false (a running actor did not take it yet) shows as `saved_later`. True when the server took it.
 */
export async function sendChange<T extends { id: number }>(
  tracking: ChangeTracking,
  rows: Resource<T[]>,
  id: number,
  post: () => Promise<T & { applied_live: boolean }>,
): Promise<boolean> {
  tracking.states.set(id, 'sending');
  tracking.errors.delete(id);
  try {
    const answer = await post();
    runInAction(() => {
      const { applied_live: live, ...row } = answer;
      if (rows.data) rows.data = rows.data.map((r) => (r.id === id ? (row as unknown as T) : r));
      tracking.states.set(id, live ? 'saved' : 'saved_later');
    });
    return true;
  } catch (error) {
    runInAction(() => {
      tracking.errors.set(id, messageOf(error));
      tracking.states.set(id, 'failed');
    });
    return false;
  }
}
