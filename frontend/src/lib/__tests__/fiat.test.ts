import { describe, expect, it } from 'vitest';

import { mergeQuotation, usdValue } from '../fiat';
import { EMPTY } from '../format';

describe('usdValue', () => {
  it("shows the quotation's live usd_price, cut to cents", () => {
    expect(usdValue({ close: '0.051442', usd_price: '3498.699025' }, '68012.5')).toBe('3498.69');
    expect(usdValue({ close: '68012.5', usd_price: '68012.5' }, undefined)).toBe('68012.50');
  });

  it("without one, prices the close at the quote currency's live USD price", () => {
    expect(usdValue({ close: '0.051442' }, '68012.5')).toBe('3498.69');
    expect(usdValue({ close: '0.05', usd_price: '' }, '70000')).toBe('3500.00');
  });

  it('shows a dash when nothing prices it', () => {
    expect(usdValue({ close: '0.05' }, undefined)).toBe(EMPTY);
    expect(usdValue(null, '1')).toBe(EMPTY);
  });
});

describe('mergeQuotation', () => {
  const q = { close: '100', change: '1', usd_price: '100', cny_price: '680' };

  it('takes the pushed fields, usd_price and cny_price included', () => {
    expect(mergeQuotation(q, { close: '101', usd_price: '101', cny_price: '686.8' })).toEqual({
      close: '101', change: '1', usd_price: '101', cny_price: '686.8',
    });
  });

  it('drops the fiat prices of an old close when a new close comes without its own', () => {
    expect(mergeQuotation(q, { close: '101', change: '2' })).toEqual({ close: '101', change: '2' });
    expect(usdValue(mergeQuotation(q, { close: '101' }), '1')).toBe('101.00'); // priced again, live
  });

  it('keeps them when the close did not move', () => {
    expect(mergeQuotation(q, { close: '100', change: '3' })).toEqual({ ...q, change: '3' });
    expect(mergeQuotation(q, { change: '3' })).toEqual({ ...q, change: '3' });
    expect(mergeQuotation(null, { close: '5' })).toEqual({ close: '5' });
  });
});
