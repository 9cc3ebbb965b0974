/** The calls of the personal centre (spec trading §7), through the one HTTP client. */
import { apiClient, type ApiTransport } from '@/lib/api-client';
import type { AccountKind } from '@/lib/validation';
import type { UserInfo } from '@/types/api';

import type { BoundAddress, PayMethod, PayMethodType, PayRawData, ProtocolCurrency, RealNameCenter } from '../types';

/** notify/send_* purposes used here: 3 deal password, 6 binding. */
export const CODE_PURPOSE = { payPassword: 3, bind: 6 } as const;

const act = { loading: true, showMsg: true } as const;

export function createPersonalApi(api: ApiTransport = apiClient) {
  return {
    userInfo: () => api.get<UserInfo>('user/info'),
    authorizationCode: () => api.get<{ code: string }>('user/authorization_code', { quiet: true }),
    sendCode: (kind: AccountKind, body: { to: string; type: number; area_id?: number | null }) =>
      api.post(kind === 'email' ? 'notify/send_email' : 'notify/send_sms', body, act),
    amendPassword: (body: { old_password: string; new_password: string; secondary_password: string }) =>
      api.post('user/amend_password', body, act),
    /** `login_password` (not in the spec) confirms the change: a stolen session alone cannot make it. */
    amendPayPassword: (body: {
      password: string;
      re_password: string;
      auth_code: string;
      vtype: AccountKind;
      login_password: string;
    }) => api.post('user/amend_pay_password', body, act),
    bindAccount: (body: {
      type: 1 | 2;
      account: string;
      sms_code: string;
      area_id?: number | null;
      login_password: string;
    }) => api.post<UserInfo>('user/bind_account', body, act),
    payTypes: () => api.get<PayMethodType[]>('pay_method/types'),
    payMethod: (type: string | number) =>
      api.get<PayMethod | null>('pay_method/get_method_by_type', { params: { type }, quiet: true }),
    savePayMethod: (type: string | number, raw: PayRawData) => api.post('pay_method/save', { type, raw_data: raw }, act),
    uploadImage: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return api.post<{ url: string }>('common/image_upload', form, { loading: true });
    },
    realNameCenter: () => api.get<RealNameCenter>('user_real/center'),
    submitRealName: (body: { name: string; card_id: string; front_pic: string; reverse_pic: string; hand_pic: string }) =>
      api.post('user_real/real_name', body, act),
    protocols: () => api.get<ProtocolCurrency[]>('block_chain/currency_protocols'),
    bindAddress: (body: { type: number; addr: string; vtype: 0 | 1; currency_protocol_id: number | null }) =>
      api.post('user/addr', body, act),
    boundAddresses: () => api.get<BoundAddress[]>('user/addr', { quiet: true }),
    feedback: (content: string) => api.post('feedback/add', { content }, act),
  };
}

export type PersonalApi = ReturnType<typeof createPersonalApi>;
