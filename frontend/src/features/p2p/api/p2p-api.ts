/**
 * The peer-to-peer calls (issue 14; docs/decisions.md "Peer-to-peer market", "Calls"). Reads are
 * quiet (the page shows a failure in place). Opening an order is quiet too: its dialog shows the
 * server's refusal (no approved real name, limits, the daily cancellation limit) where the user is
 * looking. The other actions show the overlay, the server's message and its refusal.
 */
import { apiClient, type ApiTransport } from '@/lib/api-client';

import type {
  AdSave,
  MarketAd,
  MerchantInfo,
  OrderDetail,
  OrderSummary,
  P2pConfig,
  P2pPage,
  ShopAd,
  StateFilter,
  TakerSide,
} from '../types';

const act = { loading: true, showMsg: true } as const;

export interface AdsQuery {
  side: TakerSide;
  currency_id: number;
  fiat: string;
  page: number;
}

/** legal/order/create: an amount of coins (`number`) or of fiat (`fiat_amount`), never both. */
export type OrderCreate = { ad_id: number; pay_method: string } & ({ number: string } | { fiat_amount: string });

export function createP2pApi(api: ApiTransport = apiClient) {
  return {
    config: () => api.get<P2pConfig>('legal/config', { quiet: true }),
    ads: (query: AdsQuery) => api.get<P2pPage<MarketAd>>('legal/ads', { params: { ...query }, quiet: true }),
    createOrder: (body: OrderCreate) => api.post<OrderDetail>('legal/order/create', body, { loading: true, quiet: true }),
    orders: (state: StateFilter, page: number) =>
      api.get<P2pPage<OrderSummary>>('legal/orders', { params: { state, page }, quiet: true }),
    shopOrders: (state: StateFilter, page: number) =>
      api.get<P2pPage<OrderSummary>>('shop/orders', { params: { state, page }, quiet: true }),
    detail: (id: number) => api.get<OrderDetail>('legal/order/detail', { params: { id }, quiet: true }),
    paid: (id: number, proof: string) =>
      api.post<OrderDetail>('legal/order/paid', proof ? { id, proof } : { id }, act),
    cancel: (id: number) => api.post<OrderDetail>('legal/order/cancel', { id }, act),
    release: (id: number, payPassword: string) =>
      api.post<OrderDetail>('legal/order/release', { id, pay_password: payPassword }, act),
    appeal: (id: number, reason: string, images: string[]) =>
      api.post<OrderDetail>('legal/order/appeal', { id, reason, images }, act),
    reply: (id: number, reason: string, images: string[]) =>
      api.post<OrderDetail>('legal/order/reply', { id, reason, images }, act),
    merchantInfo: () => api.get<MerchantInfo>('merchant/info', { quiet: true }),
    apply: (nickname: string) => api.post<MerchantInfo>('merchant/apply', { nickname }, act),
    shopAds: (status: number) => api.get<ShopAd[] | P2pPage<ShopAd>>('shop/ads', { params: { status }, quiet: true }),
    saveAd: (body: AdSave) => api.post<ShopAd>('shop/ad/save', body, act),
    adStatus: (id: number, status: 1 | 2) => api.post<ShopAd>('shop/ad/status', { id, status }, act),
    closeAd: (id: number) => api.post<ShopAd>('shop/ad/close', { id }, act),
    uploadImage: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return api.post<{ url: string }>('common/image_upload', form, { loading: true });
    },
  };
}

export type P2pApi = ReturnType<typeof createP2pApi>;
