import { formatPrice, type Direction } from '@/lib/format';
import type { CurrencyMatch } from '@/types/api';

/**
 * A pair's last price, flashing green or red for a moment when it moves (`tick` is the direction
 * of the last move; the key restarts the CSS animation on every new price).
 */
export function PriceCell({ match, tick, className = '' }: { match: CurrencyMatch; tick?: Direction; className?: string }) {
  const close = match.currency_quotation?.close;
  return (
    <span key={String(close)} className={`price ${tick ? `flash-${tick}` : ''} ${className}`} data-testid="price">
      {formatPrice(close, match.price_decimals)}
    </span>
  );
}
