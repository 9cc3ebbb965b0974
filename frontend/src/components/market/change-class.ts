/**
 * The display rules of the market screens that differ from the shared helpers (`@/lib/format`): a
 * change of exactly 0 is coloured up, matching the plus sign it is shown with; a completed trade is
 * coloured by its way as the spec says.
 */
import { toBig } from '@/lib/format';

/** Up (green) when the change is ≥ 0, down (red) when negative — matching the plus sign. */
export function changeClass(value: unknown): 'up' | 'down' {
  const n = toBig(value);
  return n && n.lt(0) ? 'down' : 'up';
}

/**
 * A completed trade's colour (spec trading §3: "way (2 shown green, else red)"): green (`up`) for way 2,
 * red (`down`) for anything else. See docs/decisions.md "Loose ends (issue 30)".
 */
export function tradeClass(way: unknown): 'up' | 'down' {
  return Number(way) === 2 ? 'up' : 'down';
}
