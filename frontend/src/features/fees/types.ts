/** Shapes of the fee page's reads (spec shell §9's fee page, ours): what the schedule and the API share. */

/** A currency as block_chain/currency_protocols answers it, as far as the fee page reads it. */
export interface FeeCurrency {
  id: number;
  code: string;
  /** 1: withdrawals are open. */
  open_draw: number;
  /** The withdrawal fee, a fraction of the amount. */
  draw_rate: string;
  draw_min: string;
  draw_max: string;
}
