/** The withdraw panel of one currency: chain, address, amount with live fee and received, memo, deal password. */
import { makeAutoObservable, runInAction } from 'mobx';

import { feePercent, sanitizeDecimal } from '@/lib/format';

import type { WalletApi } from '../api/wallet-api';
import { AMOUNT_DECIMALS, checkWithdraw, type WithdrawProblem, withdrawFee, withdrawReceive } from '../lib/rules';
import type { Account, BoundAddress, CurrencyProtocol } from '../types';

/** A chain withdrawals may be sent on here (an older answer without the flag counts as open). */
export function isOpen(protocol: CurrencyProtocol): boolean {
  return protocol.withdraw_open === undefined || Number(protocol.withdraw_open) === 1;
}

function firstOpen(protocols: CurrencyProtocol[]): number | null {
  return (protocols.find(isOpen) ?? protocols[0])?.id ?? null;
}

export class WithdrawStore {
  protocolId: number | null = null;
  /** The currency's chains: from account/list when it sends them, else block_chain/currency_protocols. */
  protocols: CurrencyProtocol[];
  address = '';
  amount = '';
  memo = '';
  payPassword = '';
  problem: WithdrawProblem | null = null;
  busy = false;
  /** Addresses the user bound for this currency (personal centre), offered for the chosen chain. */
  bound: BoundAddress[] = [];
  /** Binding a new address through walletMiddle, with a code (59 s resend). */
  binding = false;
  bindAddress = '';
  bindCode = '';
  bindProblem: 'p_addr' | 'codeEmpty' | null = null;

  constructor(
    private readonly api: WalletApi,
    readonly account: Account,
  ) {
    this.protocols = account.currency?.currency_protocols ?? [];
    this.protocolId = firstOpen(this.protocols);
    makeAutoObservable<WithdrawStore, 'api'>(this, { api: false, account: false });
  }

  /** Reads the chains when account/list did not send them; without them a multi-chain withdrawal is refused. */
  async loadProtocols(): Promise<void> {
    if (this.account.currency?.currency_protocols) return;
    const list = await this.api.protocols().catch(() => undefined);
    const mine = (Array.isArray(list) ? list : []).find((c) => c.id === this.account.currency_id);
    runInAction(() => {
      this.protocols = mine?.currency_protocols ?? [];
      if (!this.protocols.some((p) => p.id === this.protocolId)) this.protocolId = firstOpen(this.protocols);
    });
  }

  toggleBinding(): void {
    this.binding = !this.binding;
    this.bindProblem = null;
  }

  setBindField(field: 'bindAddress' | 'bindCode', value: string): void {
    this[field] = value;
    this.bindProblem = null;
  }

  /** Sends the walletMiddle code to the user's own e-mail or phone. */
  async sendBindCode(userId: number | null): Promise<boolean> {
    if (userId === null) return false;
    try {
      await this.api.sendDrawAddressCode(userId);
      return true;
    } catch {
      return false;
    }
  }

  /** Binds the typed address on the chosen chain; on success it becomes the withdrawal address. */
  async bind(userId: number | null, now: () => number = Date.now): Promise<boolean> {
    if (!this.bindAddress.trim()) this.bindProblem = 'p_addr';
    else if (!this.bindCode.trim()) this.bindProblem = 'codeEmpty';
    if (this.bindProblem || userId === null) return false;
    const address = this.bindAddress.trim();
    try {
      await this.api.bindDrawAddress({
        user_id: userId,
        address,
        coin_name: this.account.currency_code,
        contract_address: this.protocol?.token_address ?? '',
        verificationcode: this.bindCode.trim(),
        t: Math.floor(now() / 1000),
      });
    } catch {
      return false;
    }
    runInAction(() => {
      this.address = address;
      this.bindAddress = '';
      this.bindCode = '';
      this.binding = false;
    });
    await this.loadBound();
    return true;
  }

  async loadBound(): Promise<void> {
    const list = await this.api.boundAddresses(this.account.currency_id).catch(() => undefined);
    runInAction(() => {
      this.bound = Array.isArray(list) ? list : [];
    });
  }

  /** Bound addresses of the chosen chain (all of them when the chain is unknown). */
  get boundForChain(): BoundAddress[] {
    if (this.protocolId === null) return this.bound;
    return this.bound.filter((b) => b.currency_protocol_id == null || b.currency_protocol_id === this.protocolId);
  }

  get protocol(): CurrencyProtocol | undefined {
    return this.protocols.find((p) => p.id === this.protocolId);
  }

  /** The chosen chain is one this exchange does not send on: the form says so instead of submitting. */
  get suspended(): boolean {
    return this.protocol !== undefined && !isOpen(this.protocol);
  }

  /** Memo chains (XRP, EOS) need the receiver's memo. */
  get needsMemo(): boolean {
    return Number(this.protocol?.uses_memo) === 1;
  }

  get rate(): string {
    return String(this.account.currency?.draw_rate ?? '0');
  }

  get feePercent(): string {
    return feePercent(this.rate);
  }

  get fee(): string | null {
    return withdrawFee(this.amount, this.rate);
  }

  get receive(): string | null {
    return withdrawReceive(this.amount, this.rate);
  }

  setField(field: 'address' | 'memo' | 'payPassword', value: string): void {
    this[field] = value;
    this.problem = null;
  }

  setAmount(text: string): void {
    this.amount = sanitizeDecimal(text, AMOUNT_DECIMALS);
    this.problem = null;
  }

  setProtocol(id: number): void {
    this.protocolId = id;
  }

  /** Validates in the spec's order, then requests the withdrawal; true once the server took it. */
  async submit(): Promise<boolean> {
    const c = this.account.currency;
    this.problem = checkWithdraw(
      { address: this.address, amount: this.amount, payPassword: this.payPassword, memo: this.memo, needsMemo: this.needsMemo },
      { min: c?.draw_min, max: c?.draw_max, available: this.account.balance },
    );
    if (this.problem || this.busy) return false;
    this.busy = true;
    try {
      await this.api.draw({
        currency_id: this.account.currency_id,
        number: this.amount,
        address: this.address.trim(),
        pay_password: this.payPassword,
        memo: this.memo.trim(),
        currency_protocol_id: this.protocolId,
      });
      runInAction(() => {
        this.amount = '';
        this.payPassword = '';
      });
      return true;
    } catch {
      return false;
    } finally {
      runInAction(() => {
        this.busy = false;
      });
    }
  }
}
