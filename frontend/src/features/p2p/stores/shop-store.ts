/**
 * /myshop/myshoporders: the user's merchant standing (merchant/info) and, for an approved merchant,
 * their ads with the ad form, pause / resume and close; for anyone else the application.
 */
import { makeAutoObservable, runInAction } from 'mobx';

import { sanitizeDecimal } from '@/lib/format';

import type { P2pApi } from '../api/p2p-api';
import { FIAT_DECIMALS, plain } from '../lib/money';
import { type AdForm, type AdProblem, checkAd, checkNickname } from '../lib/rules';
import {
  AD_SIDE,
  AD_STATUS,
  MERCHANT_STATUS,
  type MerchantInfo,
  type P2pConfig,
  type P2pPage,
  PAY_CODES,
  type ShopAd,
} from '../types';
import { Loadable } from '@/lib/loadable';

/** The ads list's filter: 0 all, else one status. */
export type AdFilter = 0 | 1 | 2 | 3;

/** A window the config does not offer still works: the decisions' default. */
export const DEFAULT_WINDOW = 15;
const FALLBACK_DECIMALS = 8;

async function attempt(call: () => Promise<unknown>): Promise<boolean> {
  try {
    await call();
    return true;
  } catch {
    return false;
  }
}

export class ShopStore {
  readonly info: Loadable<MerchantInfo>;
  readonly config: Loadable<P2pConfig>;
  readonly ads: Loadable<ShopAd[]>;
  filter: AdFilter = 0;
  nickname = '';
  nicknameProblem = false;
  /** The ad form being filled in, null when closed. */
  form: AdFormStore | null = null;
  /** The ad whose closing is being confirmed. */
  closing: ShopAd | null = null;
  busy = false;

  constructor(private readonly api: P2pApi) {
    this.info = new Loadable(() => api.merchantInfo());
    this.config = new Loadable(() => api.config());
    this.ads = new Loadable(async () => {
      const answer = await api.shopAds(this.filter);
      // A list, or a page of one (`{list, …}`).
      return Array.isArray(answer) ? answer : ((answer as P2pPage<ShopAd> | undefined)?.list ?? []);
    });
    makeAutoObservable<ShopStore, 'api'>(this, { api: false, info: false, config: false, ads: false });
  }

  async start(): Promise<void> {
    await Promise.all([this.info.load(), this.config.load()]);
    if (this.isMerchant) await this.ads.load();
  }

  get isMerchant(): boolean {
    const info = this.info.data;
    return Boolean(info && (info.status === MERCHANT_STATUS.approved || info.is_seller));
  }

  /** An application may be sent: none yet or the last one refused, and the real name approved. */
  get canApply(): boolean {
    const info = this.info.data;
    if (!info || !info.levels.real_name) return false;
    return info.status === MERCHANT_STATUS.none || info.status === MERCHANT_STATUS.rejected;
  }

  setNickname(value: string): void {
    this.nickname = value;
    this.nicknameProblem = false;
  }

  async apply(): Promise<boolean> {
    if (this.busy) return false;
    if (!checkNickname(this.nickname)) {
      this.nicknameProblem = true;
      return false;
    }
    this.busy = true;
    const ok = await attempt(() => this.api.apply(this.nickname.trim()));
    runInAction(() => (this.busy = false));
    if (ok) await this.start();
    return ok;
  }

  setFilter(filter: AdFilter): void {
    if (filter === this.filter) return;
    this.filter = filter;
    void this.ads.reset();
  }

  /** The ad form, empty (a new ad) or with `ad`'s fields (an edit). */
  edit(ad?: ShopAd): void {
    const config = this.config.data;
    if (!config) return;
    this.form = new AdFormStore(this.api, config, this.info.data?.methods ?? [], ad);
  }

  closeForm(): void {
    if (!this.form?.busy) this.form = null;
  }

  /** Saves the form; true when the server took it (the list is read again). */
  async save(): Promise<boolean> {
    const form = this.form;
    if (!form) return false;
    const ok = await form.save();
    if (!ok) return false;
    runInAction(() => (this.form = null));
    await this.ads.load();
    return true;
  }

  /** Pauses an online ad (hidden, its lock kept) or puts a paused one online again. */
  async toggle(ad: ShopAd): Promise<boolean> {
    if (this.busy || ad.status === AD_STATUS.closed) return false;
    const next = ad.status === AD_STATUS.online ? AD_STATUS.paused : AD_STATUS.online;
    this.busy = true;
    const ok = await attempt(() => this.api.adStatus(ad.id, next));
    runInAction(() => (this.busy = false));
    if (ok) await this.ads.load();
    return ok;
  }

  askClose(ad: ShopAd): void {
    this.closing = ad;
  }

  dismissClose(): void {
    if (!this.busy) this.closing = null;
  }

  async confirmClose(): Promise<boolean> {
    const ad = this.closing;
    if (!ad || this.busy) return false;
    this.busy = true;
    const ok = await attempt(() => this.api.closeAd(ad.id));
    runInAction(() => {
      this.busy = false;
      if (ok) this.closing = null;
    });
    if (ok) await this.ads.load();
    return ok;
  }
}

/** Posting or editing one ad. */
export class AdFormStore {
  readonly id: number | undefined;
  values: AdForm;
  problem: AdProblem | null = null;
  busy = false;

  constructor(
    private readonly api: P2pApi,
    readonly config: P2pConfig,
    /** The collection methods the merchant may offer on a sell ad. */
    readonly ownMethods: readonly string[],
    ad?: ShopAd,
  ) {
    this.id = ad?.id;
    const windows = config.windows.length ? config.windows : [DEFAULT_WINDOW];
    this.values = ad
      ? {
          side: ad.side,
          currency_id: ad.currency_id,
          fiat: ad.fiat,
          price: plain(ad.price) ?? '',
          min_fiat: plain(ad.min_fiat) ?? '',
          max_fiat: plain(ad.max_fiat) ?? '',
          total: plain(ad.total) ?? '',
          methods: [...ad.methods],
          window_min: ad.window_min,
          remarks: ad.remarks ?? '',
        }
      : {
          side: AD_SIDE.sell,
          currency_id: config.currencies[0]?.id ?? null,
          fiat: config.fiats[0] ?? '',
          price: '',
          min_fiat: '',
          max_fiat: '',
          total: '',
          methods: [],
          window_min: windows.includes(DEFAULT_WINDOW) ? DEFAULT_WINDOW : (windows[0] ?? DEFAULT_WINDOW),
          remarks: '',
        };
    makeAutoObservable<AdFormStore, 'api'>(this, { api: false, config: false, ownMethods: false, id: false });
  }

  get editing(): boolean {
    return this.id !== undefined;
  }

  get decimals(): number {
    return this.config.currencies.find((c) => c.id === this.values.currency_id)?.decimals ?? FALLBACK_DECIMALS;
  }

  /**
   * The methods the ad may take: on a sell ad the merchant's own saved collection methods (the buyer
   * pays into them); on a buy ad any the market knows (the taker who sells names theirs).
   */
  get methodChoices(): string[] {
    const known = this.config.methods.length ? this.config.methods.map((m) => m.code) : [...PAY_CODES];
    return this.values.side === AD_SIDE.sell ? known.filter((c) => this.ownMethods.includes(c)) : known;
  }

  set<K extends keyof AdForm>(field: K, value: AdForm[K]): void {
    this.values = { ...this.values, [field]: value };
    this.problem = null;
    if (field === 'side' || field === 'currency_id') {
      const allowed = this.methodChoices;
      this.values.methods = this.values.methods.filter((m) => allowed.includes(m));
      this.values.total = sanitizeDecimal(this.values.total, this.decimals);
    }
  }

  /** A money field as typed: fiat fields keep cents, the total the coin's places. */
  setAmount(field: 'price' | 'min_fiat' | 'max_fiat' | 'total', text: string): void {
    this.set(field, sanitizeDecimal(text, field === 'total' ? this.decimals : FIAT_DECIMALS));
  }

  toggleMethod(code: string): void {
    const has = this.values.methods.includes(code);
    this.set('methods', has ? this.values.methods.filter((m) => m !== code) : [...this.values.methods, code]);
  }

  async save(): Promise<boolean> {
    if (this.busy) return false;
    const v = this.values;
    this.problem = checkAd(v, this.decimals);
    if (this.problem || v.currency_id === null) return false;
    this.busy = true;
    const ok = await attempt(() =>
      this.api.saveAd({
        ...(this.id !== undefined ? { id: this.id } : {}),
        side: v.side,
        currency_id: v.currency_id as number,
        fiat: v.fiat,
        price: plain(v.price) ?? v.price,
        min_fiat: plain(v.min_fiat) ?? v.min_fiat,
        max_fiat: plain(v.max_fiat) ?? v.max_fiat,
        total: plain(v.total) ?? v.total,
        methods: v.methods,
        window_min: v.window_min,
        remarks: v.remarks.trim(),
      }),
    );
    runInAction(() => (this.busy = false));
    return ok;
  }
}
