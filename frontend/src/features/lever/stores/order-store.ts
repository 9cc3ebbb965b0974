/**
 * The lever order panel (spec "Leveraged-contract screen", §5, §9): market-price or fixed-price
 * tab, long or short, the multiple (the pair's `muit`, 200 by default when offered) and hands (the
 * `share` presets, 1 by default), the fixed price (4 decimals), a live preview of margin and fee,
 * the free lever balance (`user_lever`), validation in the spec's order and the confirm dialog.
 * A market preview prices at the live mark (MARK pushes) moved by the spread.
 */
import { makeAutoObservable, runInAction } from 'mobx';

import type { PairMarketStore } from '@/components/market/stores/pair-market-store';
import { sanitizeDecimal } from '@/lib/format';

import type { LeverApi } from '../api/lever-api';
import { LEVER_PRICE_DECIMALS, type Preview, previewOrder, spreadPrice } from '../lib/money';
import { checkLeverOrder, type LeverMode, type LeverOrderError, sanitizeHands } from '../lib/rules';
import { LONG, type LeverDeal, type Position, type Side, type SubmitBody } from '../types';

/** Spec §9: "Lever defaults: multiple 200, hands 1". */
export const DEFAULT_MULTIPLE = 200;
export const DEFAULT_HANDS = '1';
/** lever/deal is reloaded this long after the last push that may have moved the balance. */
export const DEAL_RELOAD_DELAY_MS = 300;

/** What the confirm dialog shows, and the body it sends. */
export interface Review extends Preview {
  side: Side;
  mode: LeverMode;
  hands: number;
  multiple: number;
  body: SubmitBody;
}

export class LeverOrderStore {
  mode: LeverMode = 'market';
  side: Side = LONG;
  price = '';
  hands = DEFAULT_HANDS;
  multiple: number | null = null;
  multiples: number[] = [];
  handPresets: { value: number; label: string }[] = [];
  /** Free lever USDT (lever/deal's user_lever); null until known. */
  balance: string | null = null;
  /** The pair's mark (lever/deal, then MARK pushes). */
  mark: string | null = null;
  error: LeverOrderError | null = null;
  review: Review | null = null;
  submitting = false;

  private readonly api: LeverApi;
  private readonly market: PairMarketStore;
  private readonly onOpened: (position: Position) => void;
  private dealRequest = 0;
  private dealFor: number | null = null;
  private reloadTimer: ReturnType<typeof setTimeout> | null = null;

  /** `onOpened` gets the position the server answered (the positions list shows it at once). */
  constructor(api: LeverApi, market: PairMarketStore, onOpened: (position: Position) => void = () => {}) {
    this.api = api;
    this.market = market;
    this.onOpened = onOpened;
    makeAutoObservable<LeverOrderStore, 'api' | 'market' | 'onOpened' | 'dealRequest' | 'dealFor' | 'reloadTimer'>(
      this,
      { api: false, market: false, onOpened: false, dealRequest: false, dealFor: false, reloadTimer: false },
    );
  }

  // -- derived ------------------------------------------------------------------------------------

  /** The price the order is previewed at: the spread price of the mark, or the typed fixed price. */
  get unitPrice(): string | null {
    if (this.mode === 'fixed') return this.price || null;
    const pair = this.market.pair;
    const mark = this.mark ?? this.market.quotation?.close ?? null;
    return spreadPrice(mark, pair?.lever_point_rate, this.side, this.market.priceDecimals);
  }

  get preview(): Preview | null {
    const pair = this.market.pair;
    return previewOrder({
      price: this.unitPrice,
      hands: this.hands,
      multiple: this.multiple,
      shareNum: pair?.lever_share_num,
      feeRate: pair?.lever_fee_rate,
    });
  }

  // -- edits --------------------------------------------------------------------------------------

  setMode(mode: LeverMode): void {
    this.mode = mode;
    this.error = null;
  }

  setSide(side: Side): void {
    this.side = side;
    this.error = null;
  }

  setPrice(text: string): void {
    this.price = sanitizeDecimal(text, LEVER_PRICE_DECIMALS);
    this.error = null;
  }

  setHands(text: string): void {
    this.hands = sanitizeHands(text);
    this.error = null;
  }

  setMultiple(multiple: number | null): void {
    this.multiple = multiple;
    this.error = null;
  }

  /** A click on an order-book level: a fixed-price order at that price. */
  fillPrice(price: string): void {
    this.mode = 'fixed';
    this.setPrice(price);
  }

  // -- confirm and submit -------------------------------------------------------------------------

  /** Validate (spec §5 order) and open the confirm dialog; false (with `error`) when refused. */
  openReview(side: Side = this.side): boolean {
    this.side = side;
    const pair = this.market.pair;
    if (!pair) return false;
    const check = checkLeverOrder({
      mode: this.mode,
      side,
      pairId: pair.id,
      price: this.price,
      multiple: this.multiple,
      hands: this.hands,
    });
    if (!check.ok) {
      this.error = check.error;
      this.review = null;
      return false;
    }
    this.error = null;
    const preview = this.preview;
    if (!preview) return false; // no mark yet: nothing to price a market order at
    this.review = { ...preview, side, mode: this.mode, hands: check.body.share, multiple: check.body.multiple, body: check.body };
    return true;
  }

  closeReview(): void {
    this.review = null;
  }

  /** Send the reviewed order; resolves true when the server took it. */
  async confirm(): Promise<boolean> {
    const review = this.review;
    if (!review || this.submitting) return false;
    this.submitting = true;
    try {
      const position = await this.api.submit(review.body);
      runInAction(() => {
        this.review = null;
        if (this.mode === 'fixed') this.price = '';
      });
      if (position) this.onOpened(position);
      this.scheduleReload(0);
      return true;
    } catch {
      return false; // the request layer shows the server's message; the dialog stays to retry or cancel
    } finally {
      runInAction(() => (this.submitting = false));
    }
  }

  // -- data ---------------------------------------------------------------------------------------

  /** lever/deal for the current pair: balance, the multiples and hands offered, the mark. */
  async loadDeal(options: { quiet?: boolean } = {}): Promise<void> {
    const pairId = this.market.pairId;
    if (pairId === null) return;
    const request = ++this.dealRequest;
    let deal: LeverDeal | undefined;
    try {
      deal = await this.api.leverDeal(pairId, options);
    } catch {
      return; // shown by the request layer; the next push or pair change tries again
    }
    if (!deal || request !== this.dealRequest || pairId !== this.market.pairId) return;
    runInAction(() => this.applyDeal(pairId, deal));
  }

  /** A new pair: its offer, balance and mark; nothing typed for the old one carries over. */
  onPairChanged(): void {
    this.price = '';
    this.error = null;
    this.review = null;
    this.mark = null;
    void this.loadDeal();
  }

  /** MARK push of the current pair. */
  onMark(price: string): void {
    this.mark = price;
  }

  /** Something moved the balance (a push, a close): reload lever/deal quietly, debounced. */
  scheduleReload(delay = DEAL_RELOAD_DELAY_MS): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = null;
      void this.loadDeal({ quiet: true });
    }, delay);
  }

  dispose(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = null;
    this.dealRequest += 1; // late answers are dropped
  }

  private applyDeal(pairId: number, deal: LeverDeal): void {
    this.balance = deal.user_lever;
    if (deal.mark) this.mark = deal.mark;
    const muit = Array.isArray(deal.multiple?.muit) ? deal.multiple.muit : [];
    this.multiples = muit;
    this.handPresets = Array.isArray(deal.multiple?.share) ? deal.multiple.share : [];
    // The defaults are set when a pair opens; a reload keeps the user's choice while it is offered.
    if (this.dealFor !== pairId || this.multiple === null || !muit.includes(this.multiple)) {
      this.multiple = muit.includes(DEFAULT_MULTIPLE) ? DEFAULT_MULTIPLE : (muit[0] ?? null);
    }
    if (this.dealFor !== pairId) this.hands = DEFAULT_HANDS;
    this.dealFor = pairId;
  }
}
