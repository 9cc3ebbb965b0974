import { describe, expect, it } from 'vitest';

import { checkPayout, decide, GENESIS_HASH, tickText, verifyProof, webDigest } from '../lib/proof';
import type { SettledProof, Tick } from '../types';
import { chain, microOrder, proofOf, sealed, T0 } from './fixtures';

const digest = webDigest()!;

/** A copy of `proof` with tick `id` changed by `edit` (its hash left as it was). */
function tamper(proof: SettledProof, id: number, edit: Partial<Tick>): SettledProof {
  return { ...proof, ticks: proof.ticks.map((t) => (t.id === id ? { ...t, ...edit } : t)) };
}

describe('the tick hash', () => {
  const tick = (over: Partial<Tick>): Tick => ({
    id: 1,
    currency_match_id: 1,
    seq: 1,
    time: T0,
    price: '60000.5',
    rule: 'impact',
    version: 2,
    prev_hash: GENESIS_HASH,
    hash: '',
    ...over,
  });

  it('covers the rule in version 2, as the server computes it (a vector from hashlib)', async () => {
    expect(tickText(tick({}))).toBe(`2|${GENESIS_HASH}|1|1|${T0}|60000.5|impact`);
    expect(await digest(tickText(tick({}))!)).toBe('1c5f39a98591a5c96648605a49589b8fee9dd1fd2f042b63e4d32f8da2d83e1b');
  });

  it('is prev_hash|pair|seq|time|price in version 1, the ticks written before the rule was recorded', async () => {
    const old = tick({ rule: 'touch', version: 1 });
    expect(tickText(old)).toBe(`${GENESIS_HASH}|1|1|${T0}|60000.5`);
    expect(await digest(tickText(old)!)).toBe('d80b53d88570cdbbfd6b2d4e816b8f27f025b5df93d49288463857a4dcb6dce3');
  });

  it('breaks the chain at a tick whose rule was rewritten, or whose version it does not know', async () => {
    const proof = await proofOf('60500');
    const entry = proof.ticks[0]!;
    expect((await verifyProof(tamper(proof, entry.id, { rule: 'last' }), digest)).broken).toEqual({ tickId: entry.id, reason: 'hash' });
    expect((await verifyProof(tamper(proof, entry.id, { version: 3 }), digest)).broken).toEqual({ tickId: entry.id, reason: 'version' });
  });
});

describe('verifyProof', () => {
  it('checks an honest win: chain, entry first, exit last, outcome and payout', async () => {
    const proof = await proofOf('60500');
    const check = await verifyProof(proof, digest);
    expect(check).toMatchObject({
      chained: true,
      broken: null,
      entryFirst: true,
      exitLast: true,
      matches: true,
      paid: true,
      verified: true,
    });
    expect(check.decision.outcome).toBe('win');
    expect(check.decision.entry?.id).toBe(11);
    expect(check.decision.exit?.id).toBe(13);
    expect(check.decision.end).toBe(T0 + 100 + 30_000);
  });

  it('checks a loss, a down win and a tie', async () => {
    expect((await verifyProof(await proofOf('59000'), digest)).decision.outcome).toBe('loss');
    const down = await verifyProof(await proofOf('59000', { type: 2 }), digest);
    expect(down).toMatchObject({ verified: true, decision: { outcome: 'win' } });
    const tie = await verifyProof(await proofOf('60000'), digest);
    expect(tie).toMatchObject({ verified: true, decision: { outcome: 'tie' } });
  });

  it('finds a tampered price: the tick no longer hashes to its hash', async () => {
    const proof = await proofOf('60500');
    const check = await verifyProof(tamper(proof, 13, { price: '60600' }), digest);
    expect(check.chained).toBe(false);
    expect(check.broken).toEqual({ tickId: 13, reason: 'hash' });
    expect(check.verified).toBe(false);
  });

  it('finds a tick rewritten with a fresh hash: the next one no longer links to it', async () => {
    const proof = await proofOf('59000');
    const old = proof.ticks[2]!;
    const forged = await sealed({ ...old, price: '60500' }); // a loss turned into a win, re-hashed
    const check = await verifyProof(
      { ...proof, ticks: proof.ticks.map((t) => (t.id === old.id ? forged : t)), verdict: { ...proof.verdict, outcome: 'win' } },
      digest,
    );
    expect(check.broken).toEqual({ tickId: 14, reason: 'link' });
    expect(check.verified).toBe(false);
  });

  it('finds a dropped tick (a gap in seq) and a tick of another pair', async () => {
    const proof = await proofOf('60500');
    const gap = await verifyProof({ ...proof, ticks: proof.ticks.filter((t) => t.id !== 12) }, digest);
    expect(gap.broken).toEqual({ tickId: 13, reason: 'link' });
    const other = await verifyProof(tamper(proof, 12, { currency_match_id: 2 }), digest);
    expect(other.broken).toEqual({ tickId: 12, reason: 'pair' });
  });

  it('refuses a verdict the ticks do not give', async () => {
    const proof = await proofOf('59000'); // up, price fell: a loss
    const claimed = { ...proof, verdict: { ...proof.verdict, outcome: 'win' as const, payout: '45', fact_profits: '20' } };
    const check = await verifyProof(claimed, digest);
    expect(check.chained).toBe(true);
    expect(check.matches).toBe(false);
    expect(check.verified).toBe(false);
    const wrongExit = await verifyProof({ ...proof, verdict: { ...proof.verdict, exit_tick_id: 14 } }, digest);
    expect(wrongExit.matches).toBe(false);
  });

  it('refuses an order paid other than its verdict says', async () => {
    const proof = await proofOf('60500');
    const underpaid = await verifyProof({ ...proof, order: { ...proof.order, payout: '40', fact_profits: '15' } }, digest);
    expect(underpaid).toMatchObject({ matches: false, paid: false, verified: false });
  });

  it('refuses an entry that is not the first tick after acceptance', async () => {
    const proof = await proofOf('60500');
    // The anchor is one tick too early: a tick between it and the entry was hidden.
    const early = await verifyProof({ ...proof, anchor: { ...proof.anchor!, seq: proof.anchor!.seq - 1 } }, digest);
    expect(early.entryFirst).toBe(false);
    expect(early.verified).toBe(false);
  });

  it('cannot show the exit is the last before the end while the log has no later tick', async () => {
    const proof = await proofOf('60500');
    const check = await verifyProof({ ...proof, ticks: proof.ticks.slice(0, 3) }, digest);
    expect(check.exitLast).toBeNull();
    expect(check.verified).toBe(true); // unknown is not a failure
  });

  it('leaves the chain unknown where the browser cannot hash, and still checks the rest', async () => {
    const check = await verifyProof(await proofOf('60500'), null);
    expect(check.chained).toBeNull();
    expect(check.matches).toBe(true);
    expect(check.verified).toBe(true);
  });

  it('checks a void: no tick within the window after acceptance', async () => {
    const [anchor, late] = await chain(['60000', '60100'], [0, 40_000]);
    const order = microOrder(8, { status: 3, accepted_at: T0 + 10, outcome: 'void', payout: '25', fact_profits: '0', open_price: null, entry_tick_id: null });
    const proof: SettledProof = {
      order,
      anchor: anchor!,
      ticks: [late!],
      chained: true,
      verdict: { outcome: 'void', entry_tick_id: null, exit_tick_id: null, open_price: null, end_price: null, payout: '25', fact_profits: '0' },
    };
    const check = await verifyProof(proof, digest);
    expect(check).toMatchObject({ chained: true, entryFirst: true, matches: true, paid: true, verified: true });
    expect(check.decision).toEqual({ outcome: 'void', entry: null, exit: null, end: null });
  });
});

describe('decide', () => {
  it('never takes a tick at or before acceptance as the entry', async () => {
    const ticks = await chain(['100', '101', '102'], [0, 50, 60]);
    const d = decide({ type: 1, accepted_at: T0 + 50, seconds: 30 }, ticks);
    expect(d.entry?.id).toBe(12);
    expect(d.outcome).toBe('tie'); // the entry is also the exit: nothing came after it
  });

  it('takes the last tick at the end itself as the exit', async () => {
    const ticks = await chain(['100', '101', '99'], [10, 30_010, 30_011]);
    const d = decide({ type: 1, accepted_at: T0, seconds: 30 }, ticks);
    expect(d.exit?.id).toBe(11);
    expect(d.outcome).toBe('win');
  });
});

describe('checkPayout', () => {
  const order = { number: '25', profit_ratio: '80', fee: '0' };

  it('wants stake + profit for a win, nothing for a loss, the stake back for a tie or void', () => {
    expect(checkPayout('win', order, '45', '20')).toBe(true);
    expect(checkPayout('win', order, '46', '21')).toBe(false);
    expect(checkPayout('loss', order, '0', '-25')).toBe(true);
    expect(checkPayout('loss', order, '1', '-24')).toBe(false);
    expect(checkPayout('tie', order, '25', '0')).toBe(true);
    expect(checkPayout('void', order, '25', '0')).toBe(true);
    expect(checkPayout('void', order, '0', '0')).toBe(false);
  });

  it('allows the fee and the rounding down of the profit to USDT places', () => {
    expect(checkPayout('win', { number: '25', profit_ratio: '80', fee: '2' }, '43', '18')).toBe(true);
    expect(checkPayout('win', { number: '0.333333', profit_ratio: '85', fee: '0' }, '0.616666', '0.283333')).toBe(true);
    expect(checkPayout('win', { number: '0.333333', profit_ratio: '85', fee: '0' }, '0.616665', '0.283332')).toBe(false);
  });
});
