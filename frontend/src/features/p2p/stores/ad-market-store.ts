/**
 * /legalIndex/legal: the market's choices (the taker's side, the coin, the fiat, the page) and the
 * ads they show, then the order form of the ad the taker picked.
 */
import { makeAutoObservable, runInAction } from 'mobx';

import { isApiError } from '@/lib/api-client';
import { sanitizeDecimal } from '@/lib/format';

import type { P2pApi } from '../api/p2p-api';
import { FIAT_DECIMALS, plain } from '../lib/money';
import { type AmountMode, checkOrder, orderFigures, type OrderFigures, type OrderProblem } from '../lib/rules';
import type { MarketAd, OrderDetail, P2pConfig, P2pCurrency, P2pPage, TakerSide } from '../types';
import { Loadable } from '@/lib/loadable';

/** A coin the config does not describe keeps 8 places. */
const FALLBACK_DECIMALS = 8;

export class AdMarketStore {
  readonly config: Loadable<P2pConfig>;
  readonly ads: Loadable<P2pPage<MarketAd>>;
  side: TakerSide = 'buy';
  currencyId: number | null = null;
  fiat: string | null = null;
  page = 1;
  /** The order form of the ad being taken, null when closed. */
  form: OrderFormStore | null = null;

  constructor(private readonly api: P2pApi) {
    this.config = new Loadable(() => api.config());
    this.ads = new Loadable(() => this.readAds());
    makeAutoObservable<AdMarketStore, 'api' | 'readAds'>(this, { api: false, config: false, ads: false, readAds: false });
  }

  /** Reads the config, picks its first coin and fiat, then the ads. */
  async start(): Promise<void> {
    await this.config.load();
    const config = this.config.data;
    if (!config) return;
    runInAction(() => {
      this.currencyId ??= config.currencies[0]?.id ?? null;
      this.fiat ??= config.fiats[0] ?? null;
    });
    await this.ads.load();
  }

  get currencies(): P2pCurrency[] {
    return this.config.data?.currencies ?? [];
  }

  get currency(): P2pCurrency | undefined {
    return this.currencies.find((c) => c.id === this.currencyId);
  }

  /** The places of a coin (its amounts are cut to them). */
  decimalsOf(currencyId: number): number {
    return this.currencies.find((c) => c.id === currencyId)?.decimals ?? FALLBACK_DECIMALS;
  }

  setSide(side: TakerSide): void {
    if (side === this.side) return;
    this.side = side;
    this.reread();
  }

  setCurrency(id: number): void {
    if (id === this.currencyId) return;
    this.currencyId = id;
    this.reread();
  }

  setFiat(fiat: string): void {
    if (fiat === this.fiat) return;
    this.fiat = fiat;
    this.reread();
  }

  setPage(page: number): void {
    if (page === this.page || page < 1) return;
    this.page = page;
    void this.ads.load();
  }

  /** Another list: from its first page, without showing the last one meanwhile. */
  private reread(): void {
    this.page = 1;
    void this.ads.reset();
  }

  private async readAds(): Promise<P2pPage<MarketAd> | undefined> {
    if (this.currencyId === null || !this.fiat) return undefined;
    return this.api.ads({ side: this.side, currency_id: this.currencyId, fiat: this.fiat, page: this.page });
  }

  open(ad: MarketAd): void {
    this.form = new OrderFormStore(this.api, ad, this.decimalsOf(ad.currency_id));
  }

  close(): void {
    if (!this.form?.busy) this.form = null;
  }
}

/**
 * The order dialog: the taker types fiat or coins (the other is computed), picks one of the ad's
 * methods and sends. A refusal (no approved real name, the daily limit, the ad gone) is shown in
 * the dialog in the server's words.
 */
export class OrderFormStore {
  mode: AmountMode = 'fiat';
  fiatText = '';
  coinText = '';
  method: string | null;
  problem: OrderProblem | null = null;
  /** The server's refusal of the last send. */
  refusal: string | null = null;
  busy = false;

  constructor(
    private readonly api: P2pApi,
    readonly ad: MarketAd,
    readonly decimals: number,
  ) {
    this.method = ad.methods.length === 1 ? (ad.methods[0] ?? null) : null;
    makeAutoObservable<OrderFormStore, 'api'>(this, { api: false, ad: false, decimals: false });
  }

  /** What the order will be, by the field last typed in. */
  get figures(): OrderFigures {
    return orderFigures(this.ad, this.decimals, this.mode, this.mode === 'fiat' ? this.fiatText : this.coinText);
  }

  setFiat(text: string): void {
    this.mode = 'fiat';
    this.fiatText = sanitizeDecimal(text, FIAT_DECIMALS);
    this.coinText = this.figures.amount ?? '';
    this.clear();
  }

  setCoin(text: string): void {
    this.mode = 'coin';
    this.coinText = sanitizeDecimal(text, this.decimals);
    this.fiatText = this.figures.total ?? '';
    this.clear();
  }

  /** The most this ad takes now: by fiat its `max_now`, which fills the coin field in turn. */
  fillMax(): void {
    this.setFiat(String(this.ad.max_now));
  }

  setMethod(code: string): void {
    this.method = code;
    this.clear();
  }

  private clear(): void {
    this.problem = null;
    this.refusal = null;
  }

  /** Opens the order after the checks; the new order's detail, or null (checked or refused). */
  async submit(): Promise<OrderDetail | null> {
    if (this.busy) return null;
    this.problem = checkOrder(this.ad, this.figures, this.method);
    if (this.problem || !this.method) return null;
    const typed = plain(this.mode === 'fiat' ? this.fiatText : this.coinText);
    if (!typed) return null;
    const amount = this.mode === 'fiat' ? { fiat_amount: typed } : { number: typed };
    this.busy = true;
    this.refusal = null;
    try {
      const order = await this.api.createOrder({ ad_id: this.ad.id, pay_method: this.method, ...amount });
      runInAction(() => (this.busy = false));
      return order ?? null;
    } catch (error) {
      runInAction(() => {
        this.busy = false;
        this.refusal = isApiError(error) && error.kind !== 'aborted' ? error.message : null;
      });
      return null;
    }
  }
}
