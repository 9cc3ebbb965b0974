/** Payment methods, real-name authentication, withdrawal addresses and feedback. */
import { makeAutoObservable, runInAction } from 'mobx';

import type { PersonalApi } from '../api/personal-api';
import {
  addressVtype,
  checkFeedback,
  checkPayMethod,
  checkRealName,
  type RealNameForm,
} from '../lib/rules';
import type { BoundAddress, PayMethodCode, PayMethodType, PayRawData, ProtocolCurrency } from '../types';

type Status = 'idle' | 'loading' | 'ready' | 'error';

async function attempt(call: () => Promise<unknown>): Promise<boolean> {
  try {
    await call();
    return true;
  } catch {
    return false;
  }
}

const PAY_CODES: PayMethodCode[] = ['alipay', 'wxpay', 'bank'];

export class PayMethodStore {
  types: PayMethodType[] = [];
  code: PayMethodCode = 'alipay';
  raw: PayRawData = {};
  problem: keyof PayRawData | null = null;
  status: Status = 'idle';

  constructor(private readonly api: PersonalApi) {
    makeAutoObservable<PayMethodStore, 'api'>(this, { api: false });
  }

  get type(): PayMethodType | undefined {
    return this.types.find((t) => t.code === this.code);
  }

  async load(): Promise<void> {
    this.status = 'loading';
    try {
      const types = await this.api.payTypes();
      runInAction(() => {
        this.types = (types ?? []).filter((t) => PAY_CODES.includes(t.code));
        this.status = 'ready';
      });
      await this.select(this.types[0]?.code ?? 'alipay');
    } catch {
      runInAction(() => {
        this.status = 'error';
      });
    }
  }

  /** Shows a method with what was saved for it. */
  async select(code: PayMethodCode): Promise<void> {
    this.code = code;
    this.raw = {};
    this.problem = null;
    const saved = await this.api.payMethod(this.type?.id ?? code).catch(() => undefined);
    runInAction(() => {
      if (this.code === code) this.raw = { ...(saved?.raw_data ?? {}) };
    });
  }

  set(field: keyof PayRawData, value: string): void {
    this.raw = { ...this.raw, [field]: value };
    this.problem = null;
  }

  async upload(file: File): Promise<void> {
    const answer = await this.api.uploadImage(file).catch(() => undefined);
    if (answer?.url) this.set('qrcode', answer.url);
  }

  async save(): Promise<boolean> {
    this.problem = checkPayMethod(this.code, this.raw);
    if (this.problem) return false;
    return attempt(() => this.api.savePayMethod(this.type?.id ?? this.code, this.raw));
  }
}

export class RealNameStore {
  /** 0 form, 1 under review, 2 approved; null until known. */
  reviewStatus: number | null = null;
  /** Why the last request was refused (shown above the form again). */
  rejectReason = '';
  status: Status = 'idle';
  form: RealNameForm = { name: '', card_id: '', front_pic: '', reverse_pic: '', hand_pic: '' };
  problem: keyof RealNameForm | null = null;

  constructor(private readonly api: PersonalApi) {
    makeAutoObservable<RealNameStore, 'api'>(this, { api: false });
  }

  async load(): Promise<void> {
    this.status = 'loading';
    try {
      const center = await this.api.realNameCenter();
      runInAction(() => {
        this.reviewStatus = Number(center?.review_status ?? 0);
        this.rejectReason = center?.reject_reason ?? '';
        this.status = 'ready';
      });
    } catch {
      runInAction(() => {
        this.status = 'error';
      });
    }
  }

  set(field: keyof RealNameForm, value: string): void {
    this.form = { ...this.form, [field]: value };
    this.problem = null;
  }

  async upload(field: 'front_pic' | 'reverse_pic' | 'hand_pic', file: File): Promise<void> {
    const answer = await this.api.uploadImage(file).catch(() => undefined);
    if (answer?.url) this.set(field, answer.url);
  }

  async submit(): Promise<boolean> {
    this.problem = checkRealName(this.form);
    if (this.problem) return false;
    const form = { ...this.form, name: this.form.name.trim(), card_id: this.form.card_id.trim() };
    const ok = await attempt(() => this.api.submitRealName(form));
    if (ok) await this.load();
    return ok;
  }
}

export class BindAddressStore {
  currencies: ProtocolCurrency[] = [];
  currencyId: number | null = null;
  protocolId: number | null = null;
  address = '';
  problem: 'p_addr' | null = null;
  status: Status = 'idle';
  bound: BoundAddress[] = [];

  constructor(private readonly api: PersonalApi) {
    makeAutoObservable<BindAddressStore, 'api'>(this, { api: false });
  }

  /** The addresses already bound; an empty list when they cannot be read. */
  async loadBound(): Promise<void> {
    const list = await this.api.boundAddresses().catch(() => undefined);
    runInAction(() => {
      this.bound = Array.isArray(list) ? list : [];
    });
  }

  get currency(): ProtocolCurrency | undefined {
    return this.currencies.find((c) => c.id === this.currencyId);
  }

  get protocols() {
    return this.currency?.currency_protocols ?? [];
  }

  async load(): Promise<void> {
    this.status = 'loading';
    try {
      const list = await this.api.protocols();
      runInAction(() => {
        this.currencies = Array.isArray(list) ? list : [];
        this.status = 'ready';
        this.setCurrency(this.currencies[0]?.id ?? null);
      });
      void this.loadBound();
    } catch {
      runInAction(() => {
        this.status = 'error';
      });
    }
  }

  setCurrency(id: number | null): void {
    this.currencyId = id;
    this.protocolId = this.protocols[0]?.id ?? null;
  }

  setProtocol(id: number): void {
    this.protocolId = id;
  }

  setAddress(value: string): void {
    this.address = value;
    this.problem = null;
  }

  /** `type` names the currency (its id, as serve/api reads it); `vtype` picks USDT's chain (spec §7). */
  async bind(): Promise<boolean> {
    const currency = this.currency;
    if (!this.address.trim()) this.problem = 'p_addr';
    if (this.problem || !currency) return false;
    const chain = this.protocols.find((p) => p.id === this.protocolId)?.chain_protocol?.code;
    const ok = await attempt(() =>
      this.api.bindAddress({
        type: currency.id,
        addr: this.address.trim(),
        vtype: addressVtype(currency.code, chain),
        currency_protocol_id: this.protocolId,
      }),
    );
    if (ok) {
      runInAction(() => (this.address = ''));
      await this.loadBound();
    }
    return ok;
  }
}

export class FeedbackStore {
  content = '';
  problem: 'feedbackEmpty' | 'feedbackShort' | null = null;
  sent = false;

  constructor(private readonly api: PersonalApi) {
    makeAutoObservable<FeedbackStore, 'api'>(this, { api: false });
  }

  setContent(value: string): void {
    this.content = value;
    this.problem = null;
    this.sent = false;
  }

  async submit(): Promise<boolean> {
    this.problem = checkFeedback(this.content);
    if (this.problem) return false;
    const ok = await attempt(() => this.api.feedback(this.content.trim()));
    if (ok) runInAction(() => {
      this.content = '';
      this.sent = true;
    });
    return ok;
  }
}
