import type { MarketAd, MerchantInfo, OrderDetail, P2pConfig, ShopAd } from '../types';

export const config: P2pConfig = {
  currencies: [
    { id: 1, code: 'USDT', decimals: 6 },
    { id: 2, code: 'BTC', decimals: 8 },
  ],
  fiats: ['CNY', 'USD'],
  methods: [
    { code: 'alipay', name: 'Alipay' },
    { code: 'wxpay', name: 'WeChat' },
    { code: 'bank', name: 'Bank' },
  ],
  windows: [10, 15, 20, 30],
  cancel_limit: 3,
};

export function ad(id: number, extra: Partial<MarketAd> = {}): MarketAd {
  return {
    id,
    side: 1,
    taker_side: 'buy',
    currency_id: 1,
    currency: 'USDT',
    fiat: 'CNY',
    price: '7.30',
    min_fiat: '100',
    max_fiat: '5000',
    max_now: '3650',
    stock: '500',
    methods: ['alipay', 'bank'],
    window_min: 15,
    remarks: '',
    merchant: { uid: 9, nickname: 'alice', orders_30d: 12, completion_rate: '91.6' },
    ...extra,
  };
}

export function detail(id: number, extra: Partial<OrderDetail> = {}): OrderDetail {
  return {
    id,
    ad_id: 1,
    state: 1,
    state_name: 'unpaid',
    side: 1,
    role: 'buyer',
    is_merchant: false,
    currency_id: 1,
    currency: 'USDT',
    fiat: 'CNY',
    price: '7.30',
    amount: '13.69863',
    total: '100.00',
    pay_method: 'alipay',
    pay_details: { real_name: 'Zhang Wei', account: 'zw@example.com', qrcode: '/uploads/qr.png' },
    counterparty: { name: 'Z*** W**', nickname: 'alice' },
    created_ms: 1_700_000_000_000,
    deadline_ms: 1_700_000_900_000,
    remain_ms: 900_000,
    paid_ms: null,
    ended_ms: null,
    cancel_kind: '',
    proof: '',
    appeal: null,
    resolved_to: '',
    actions: ['paid', 'cancel'],
    events: [{ seq: 1, from_state: 0, to_state: 1, by: 'buyer', at_ms: 1_700_000_000_000 }],
    ...extra,
  };
}

export function merchantInfo(extra: Partial<MerchantInfo> = {}): MerchantInfo {
  return {
    status: 1,
    status_name: 'approved',
    nickname: 'alice',
    reject_reason: '',
    is_seller: true,
    levels: { mobile: true, real_name: true, advanced: true },
    orders_30d: 3,
    completion_rate: '100.0',
    methods: ['alipay'],
    ...extra,
  };
}

export function shopAd(id: number, extra: Partial<ShopAd> = {}): ShopAd {
  return {
    id,
    side: 1,
    currency_id: 1,
    currency: 'USDT',
    fiat: 'CNY',
    price: '7.30000000',
    min_fiat: '100.00',
    max_fiat: '5000.00',
    total: '1000.000000',
    stock: '800',
    in_orders: '200',
    sold: '0',
    methods: ['alipay'],
    window_min: 15,
    remarks: 'fast',
    status: 1,
    ...extra,
  };
}
