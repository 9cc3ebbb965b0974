/** Display places of a pair that does not say its own (spec trading §5: prices at most 4 decimals). */
export const PRICE_DECIMALS = 4;
export const QUANTITY_DECIMALS = 6;
