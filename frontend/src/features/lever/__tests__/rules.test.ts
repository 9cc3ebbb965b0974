import { describe, expect, it } from 'vitest';

import { checkLeverOrder, type LeverDraft, sanitizeHands } from '../lib/rules';
import { LONG, SHORT } from '../types';

const draft = (over: Partial<LeverDraft> = {}): LeverDraft => ({
  mode: 'fixed',
  side: LONG,
  pairId: 1,
  price: '59000',
  multiple: 200,
  hands: '1',
  ...over,
});

describe('lever order checks (spec §5, in its order)', () => {
  it('a fixed price needs the price first, then the multiple, then the hands', () => {
    expect(checkLeverOrder(draft({ price: '', multiple: null, hands: '' }))).toEqual({ ok: false, error: 'p_delprice' });
    expect(checkLeverOrder(draft({ price: '0', multiple: null }))).toEqual({ ok: false, error: 'p_delprice' });
    expect(checkLeverOrder(draft({ multiple: null, hands: '' }))).toEqual({ ok: false, error: 'p_times' });
    expect(checkLeverOrder(draft({ hands: '' }))).toEqual({ ok: false, error: 'p_hands' });
    expect(checkLeverOrder(draft({ hands: '0' }))).toEqual({ ok: false, error: 'p_hands' });
    expect(checkLeverOrder(draft({ hands: '1.5' }))).toEqual({ ok: false, error: 'p_hands' });
  });

  it('a market order needs no price', () => {
    const check = checkLeverOrder(draft({ mode: 'market', price: '', side: SHORT, hands: '5', multiple: 10 }));
    expect(check).toEqual({
      ok: true,
      body: { currency_match_id: 1, type: SHORT, status: 1, share: 5, multiple: 10, target_price: null },
    });
  });

  it('shapes a fixed-price body with status 0 and the target as a plain decimal', () => {
    const check = checkLeverOrder(draft({ price: '59000.50' }));
    expect(check).toEqual({
      ok: true,
      body: { currency_match_id: 1, type: LONG, status: 0, share: 1, multiple: 200, target_price: '59000.5' },
    });
  });

  it('hands keep digits only', () => {
    expect(sanitizeHands('0012a.5')).toBe('125');
    expect(sanitizeHands('')).toBe('');
    expect(sanitizeHands('0')).toBe('0');
  });
});
