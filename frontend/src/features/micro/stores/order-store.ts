/**
 * The second-contract order panel (spec "Second-contract screen", §5): the payable-currency tabs
 * with the user's micro balance, the stake (a preset, sent with lx = 2, or typed, lx = 1), the
 * durations of the pair with their profit percent, buy up or down, and the confirm dialog with the
 * payout a win would bring. A refusal of the server (the product switched off, a cap, the balance)
 * is its message, shown in the dialog; the panel shows why it cannot load (e.g. switched off).
 */
import { makeAutoObservable, runInAction } from 'mobx';

import type { PairMarketStore } from '@/components/market/stores/pair-market-store';
import { isApiError } from '@/lib/api-client';
import { sanitizeDecimal } from '@/lib/format';

import type { MicroApi } from '../api/micro-api';
import { checkMicroOrder, STAKE_DECIMALS, winPayout } from '../lib/rules';
import {
  CUSTOM,
  type Direction,
  type MicroOrder,
  type PayableCurrency,
  PRESET,
  type SecondsOption,
  type StakeKind,
  type SubmitBody,
} from '../types';

/** payable_currencies (the balance) is reloaded this long after the last change that moved it. */
export const BALANCE_RELOAD_DELAY_MS = 300;

/** What the confirm dialog shows, and the body it sends. */
export interface Review {
  symbol: string;
  type: Direction;
  stake: string;
  currency: string;
  seconds: number;
  percent: string;
  /** stake + stake × percent / 100. */
  payout: string | null;
  body: SubmitBody;
}

const messageOf = (error: unknown): string => (isApiError(error) || error instanceof Error ? error.message : String(error));

export class MicroOrderStore {
  currencies: PayableCurrency[] = [];
  currencyId: number | null = null;
  options: SecondsOption[] = [];
  seconds: number | null = null;
  stake = '';
  kind: StakeKind = PRESET;
  /** The pair's latest mark (the price that settles contracts). */
  mark: string | null = null;
  error: 'p_num' | null = null;
  review: Review | null = null;
  /** The server's refusal of the reviewed order. */
  refusal: string | null = null;
  submitting = false;
  /** Why the stake currencies could not be read (e.g. the product is switched off here). */
  unavailable: string | null = null;

  private readonly api: MicroApi;
  private readonly market: PairMarketStore;
  private readonly onPlaced: (order: MicroOrder) => void;
  private secondsRequest = 0;
  private reloadTimer: ReturnType<typeof setTimeout> | null = null;

  /** `onPlaced` gets the order the server answered (the history shows it at once). */
  constructor(api: MicroApi, market: PairMarketStore, onPlaced: (order: MicroOrder) => void = () => {}) {
    this.api = api;
    this.market = market;
    this.onPlaced = onPlaced;
    makeAutoObservable<MicroOrderStore, 'api' | 'market' | 'onPlaced' | 'secondsRequest' | 'reloadTimer'>(this, {
      api: false,
      market: false,
      onPlaced: false,
      secondsRequest: false,
      reloadTimer: false,
    });
  }

  // -- derived ------------------------------------------------------------------------------------

  get currency(): PayableCurrency | null {
    return this.currencies.find((c) => c.id === this.currencyId) ?? null;
  }

  /** The micro balance in the chosen currency; null until known. */
  get balance(): string | null {
    const c = this.currency;
    return c ? (c.micro_account?.balance ?? '0') : null;
  }

  get presets(): string[] {
    return (this.currency?.micro_numbers ?? []).map((n) => String(n.number));
  }

  get option(): SecondsOption | null {
    return this.options.find((o) => o.seconds === this.seconds) ?? null;
  }

  /** What a win pays back on the current stake and duration. */
  get payout(): string | null {
    return winPayout(this.stake, this.option?.profit_ratio);
  }

  get ready(): boolean {
    return this.market.pair !== null && this.currency !== null && this.option !== null;
  }

  // -- edits --------------------------------------------------------------------------------------

  setCurrency(id: number): void {
    this.currencyId = id;
    this.error = null;
    // A preset stake must be one of this currency's presets; a typed one is kept.
    if (this.kind === PRESET && !this.presets.includes(this.stake)) this.stake = this.presets[0] ?? '';
  }

  setSeconds(seconds: number): void {
    this.seconds = seconds;
  }

  /** A preset stake button: sent as lx = 2. */
  pickPreset(number: string): void {
    this.stake = number;
    this.kind = PRESET;
    this.error = null;
  }

  /** A typed stake: sent as lx = 1. */
  setStake(text: string): void {
    this.stake = sanitizeDecimal(text, STAKE_DECIMALS);
    this.kind = CUSTOM;
    this.error = null;
  }

  // -- confirm and submit -------------------------------------------------------------------------

  /** Validate (spec §5) and open the confirm dialog; false (with `error`) when refused. */
  openReview(type: Direction): boolean {
    const pair = this.market.pair;
    const currency = this.currency;
    const option = this.option;
    if (!pair || !currency || !option) return false;
    const check = checkMicroOrder({
      pairId: pair.id,
      currencyId: currency.id,
      type,
      kind: this.kind,
      seconds: option.seconds,
      stake: this.stake,
    });
    if (!check.ok) {
      this.error = check.error;
      this.review = null;
      return false;
    }
    this.error = null;
    this.refusal = null;
    this.review = {
      symbol: pair.symbol,
      type,
      stake: check.body.number,
      currency: currency.code,
      seconds: option.seconds,
      percent: option.profit_ratio,
      payout: winPayout(check.body.number, option.profit_ratio),
      body: check.body,
    };
    return true;
  }

  closeReview(): void {
    this.review = null;
    this.refusal = null;
  }

  /** Send the reviewed order; resolves true when the server took it, else `refusal` says why. */
  async confirm(): Promise<boolean> {
    const review = this.review;
    if (!review || this.submitting) return false;
    this.submitting = true;
    this.refusal = null;
    try {
      const order = await this.api.submit(review.body);
      runInAction(() => (this.review = null));
      if (order) this.onPlaced(order);
      this.scheduleReload(0);
      return true;
    } catch (error) {
      runInAction(() => (this.refusal = messageOf(error)));
      return false;
    } finally {
      runInAction(() => (this.submitting = false));
    }
  }

  // -- data ---------------------------------------------------------------------------------------

  /** The stake currencies with the balance and presets; the first one is chosen on the first load. */
  async loadCurrencies(options: { quiet?: boolean } = {}): Promise<void> {
    let currencies: PayableCurrency[];
    try {
      currencies = await this.api.payableCurrencies({ quiet: true });
    } catch (error) {
      if (!options.quiet) runInAction(() => (this.unavailable = messageOf(error)));
      return;
    }
    runInAction(() => {
      this.unavailable = null;
      this.currencies = currencies;
      if (!currencies.some((c) => c.id === this.currencyId)) {
        const first = currencies[0];
        if (first) this.setCurrency(first.id);
        else this.currencyId = null;
      }
    });
  }

  /** The durations of the current pair; the chosen one is kept while it is offered. */
  async loadSeconds(): Promise<void> {
    const pairId = this.market.pairId;
    if (pairId === null) return;
    const request = ++this.secondsRequest;
    let options: SecondsOption[];
    try {
      options = await this.api.seconds(pairId, { quiet: true });
    } catch {
      return; // the panel stays without durations; the next pair change tries again
    }
    if (request !== this.secondsRequest || pairId !== this.market.pairId) return;
    runInAction(() => {
      this.options = options;
      if (!options.some((o) => o.seconds === this.seconds)) this.seconds = options[0]?.seconds ?? null;
    });
  }

  /** A new pair: its durations and mark; a dialog about the old pair closes. */
  onPairChanged(): void {
    this.review = null;
    this.refusal = null;
    this.error = null;
    this.mark = null;
    void this.loadSeconds();
  }

  /** MARK push of the current pair. */
  onMark(price: string): void {
    this.mark = price;
  }

  /** Something moved the micro balance (an order, a settlement): reload it quietly, debounced. */
  scheduleReload(delay = BALANCE_RELOAD_DELAY_MS): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => {
      this.reloadTimer = null;
      void this.loadCurrencies({ quiet: true });
    }, delay);
  }

  dispose(): void {
    if (this.reloadTimer) clearTimeout(this.reloadTimer);
    this.reloadTimer = null;
    this.secondsRequest += 1; // late answers are dropped
  }
}
