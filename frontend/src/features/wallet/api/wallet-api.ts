/** The calls of the assets area (spec trading §7), through the one HTTP client. */
import { apiClient, type ApiTransport } from '@/lib/api-client';
import type { Paginated } from '@/types/api';

import { type DrawAddressPayload, signedForm, WALLET_MIDDLE_BASE_URL } from '../lib/wallet-middle';
import type {
  AccountGroup,
  AssetRecord,
  BoundAddress,
  ChainDeposit,
  ProtocolCurrency,
  RecordsKind,
  Wallet,
  Withdrawal,
} from '../types';

export interface DrawInput {
  currency_id: number;
  number: string;
  address: string;
  pay_password: string;
  memo: string;
  currency_protocol_id: number | null;
}

export interface TransferInput {
  currency_id: number;
  balance: string;
  from: string;
  to: string;
}

const walletMiddle = { baseUrl: WALLET_MIDDLE_BASE_URL };

export function createWalletApi(api: ApiTransport = apiClient) {
  return {
    /** walletMiddle: a code to the user's own e-mail (else phone) for binding a withdrawal address. */
    sendDrawAddressCode: (userId: number) =>
      api.post('SendVerificationcode', new URLSearchParams({ user_id: String(userId) }), {
        ...walletMiddle,
        loading: true,
        showMsg: true,
      }),
    /** walletMiddle: bind a withdrawal address with that code, as a signed form. */
    bindDrawAddress: (payload: DrawAddressPayload) =>
      api.post<BoundAddress>('BindDrawAddress', signedForm(payload), { ...walletMiddle, loading: true, showMsg: true }),
    accounts: () => api.get<AccountGroup[]>('account/list'),
    wallets: (currencyId: number) => api.get<Wallet[]>('wallet/wallet', { params: { currency_id: currencyId } }),
    protocols: () => api.get<ProtocolCurrency[]>('block_chain/currency_protocols'),
    draw: (input: DrawInput) => api.post('account/draw', input, { loading: true, showMsg: true }),
    convert: (input: { currency_id: number; number: string; currency_protocol_id: number | null }) =>
      api.post('account/convert', input, { loading: true, showMsg: true }),
    transfer: (input: TransferInput) => api.post('account/transfer', input, { loading: true, showMsg: true }),
    records: (kind: RecordsKind, currencyId: number | null, page: number) =>
      api.get<Paginated<AssetRecord>>(`account_log/${kind}`, { params: { currency_id: currencyId, page } }),
    deposits: (currencyId: number | null, page: number) =>
      api.get<Paginated<ChainDeposit>>('wallet/deposits', { params: { currency_id: currencyId, page } }),
    withdrawals: (currencyId: number | null, page: number) =>
      api.get<Paginated<Withdrawal>>('account/withdrawals', { params: { currency_id: currencyId, page } }),
    /** The user's bound withdrawal addresses of a currency; quiet, the panel works without them. */
    boundAddresses: (currencyId: number) =>
      api.get<BoundAddress[]>('user/addr', { params: { currency_id: currencyId }, quiet: true }),
    transferLog: (currencyId: number | null, page: number) =>
      api.get<Paginated<AssetRecord>>('account/transfer_log', { params: { currency_id: currencyId, page } }),
  };
}

export type WalletApi = ReturnType<typeof createWalletApi>;
