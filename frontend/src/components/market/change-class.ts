/**
 * The one display rule of the market screens that differs from the shared helpers (`@/lib/format`):
 * a change of exactly 0 is coloured up, matching the plus sign it is shown with.
 */
import { toBig } from '@/lib/format';

/** Up (green) when the change is ≥ 0, down (red) when negative — matching the plus sign. */
export function changeClass(value: unknown): 'up' | 'down' {
  const n = toBig(value);
  return n && n.lt(0) ? 'down' : 'up';
}
