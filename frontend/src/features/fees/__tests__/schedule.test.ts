import { describe, expect, it } from 'vitest';

import type { QuoteGroup } from '@/components/market/types';

import type { FeeCurrency } from '../types';
import { FEE_ILLUSTRATION, illustrate, tradingFees, withdrawFees } from '../lib/schedule';

describe('the fee illustration', () => {
  it('is the spec’s: 0.3 % and 0.4 % on 10,000 USDT are 30 and 40 USDT', () => {
    expect(FEE_ILLUSTRATION).toEqual({ amount: '10000', currency: 'USDT', rates: ['0.003', '0.004'] });
    expect(illustrate()).toEqual([
      { rate: '0.003', percent: '0.3', fee: '30', rest: '9970' },
      { rate: '0.004', percent: '0.4', fee: '40', rest: '9960' },
    ]);
  });

  it('computes in decimals, not floats', () => {
    // 0.1 × 0.003 is 0.00030000000000000003 in floats.
    expect(illustrate('0.1', ['0.003'])).toEqual([{ rate: '0.003', percent: '0.3', fee: '0.0003', rest: '0.0997' }]);
  });
});

const pair = (id: number, extra: object) => ({
  id, symbol: `P${id}/USDT`, base_currency_id: id, quote_currency_id: 1, base_currency_code: `P${id}`,
  quote_currency_code: 'USDT', open_change: 1, open_lever: 0, maker_fee: '0.002', taker_fee: '0.0025',
  lever_fee_rate: '0.001', currency_quotation: null, ...extra,
});

describe('the schedule', () => {
  it('lists spot fees of spot pairs and the lever fee of lever pairs, in percent, in the server’s order', () => {
    const groups: QuoteGroup[] = [
      { id: 1, code: 'USDT', matches: [pair(1, { open_lever: 1 }), pair(2, {}), pair(3, { open_change: 0 })] },
      { id: 2, code: 'BTC', matches: [pair(4, { open_change: 0, open_lever: 1, lever_fee_rate: '0.0005' })] },
    ];
    expect(tradingFees(groups)).toEqual([
      { id: 1, symbol: 'P1/USDT', maker: '0.2', taker: '0.25', lever: '0.1' },
      { id: 2, symbol: 'P2/USDT', maker: '0.2', taker: '0.25', lever: null },
      { id: 4, symbol: 'P4/USDT', maker: null, taker: null, lever: '0.05' },
    ]);
  });

  it('lists each currency’s withdrawal fee in percent with its bounds as sent', () => {
    const currencies: FeeCurrency[] = [
      { id: 1, code: 'USDT', open_draw: 1, draw_rate: '0.01', draw_min: '10', draw_max: '100000' },
      { id: 2, code: 'BTC', open_draw: 0, draw_rate: '0.0005', draw_min: '0.001', draw_max: '100' },
    ];
    expect(withdrawFees(currencies)).toEqual([
      { code: 'USDT', open: true, percent: '1', min: '10', max: '100000' },
      { code: 'BTC', open: false, percent: '0.05', min: '0.001', max: '100' },
    ]);
  });
});
