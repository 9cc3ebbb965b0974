/** Shapes of the personal centre's API (spec trading §3, §7). */

export interface PayMethodType {
  id: number;
  name: string;
  code: PayMethodCode;
}

export type PayMethodCode = 'alipay' | 'wxpay' | 'bank';

/** pay_method raw_data: name and account (with a QR image) for alipay/wxpay; bank details for bank. */
export interface PayRawData {
  real_name?: string;
  account?: string;
  qrcode?: string;
  bank_name?: string;
  card_no?: string;
  bank_address?: string;
}

export interface PayMethod {
  id?: number;
  type?: number | string;
  raw_data?: PayRawData | null;
}

/** 0 not submitted, 1 under review, 2 approved (spec §3); a rejection goes back to 0 with its reason. */
export interface RealNameCenter {
  review_status: number;
  name?: string;
  card_id?: string;
  reject_reason?: string;
}

export interface ProtocolCurrency {
  id: number;
  code: string;
  currency_protocols: { id: number; token_address?: string | null; chain_protocol?: { code: string } | null }[];
}

/** A bound withdrawal address (GET user/addr). */
export interface BoundAddress {
  id: number;
  currency_id: number;
  currency?: { code: string } | null;
  chain_protocol?: { code: string } | null;
  address: string;
}
