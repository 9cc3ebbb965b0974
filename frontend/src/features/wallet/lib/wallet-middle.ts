/**
 * The signed form of the walletMiddle service (spec trading §7): `data` is the JSON of the request
 * and `sign` the MD5 hex digest of `data` followed by a fixed salt. The salt ships with the web
 * client (the server also checks the session, see docs/decisions.md), so it is build configuration:
 * VITE_WALLET_MIDDLE_SALT, the development salt of config/settings.py when unset.
 */
import { md5 } from 'js-md5';

export const WALLET_MIDDLE_BASE_URL = '/walletMiddle/';
export const DEV_WALLET_MIDDLE_SALT = 'dev-only-wallet-salt';
export const WALLET_MIDDLE_SALT: string =
  (import.meta.env.VITE_WALLET_MIDDLE_SALT as string | undefined) || DEV_WALLET_MIDDLE_SALT;

export interface DrawAddressPayload {
  user_id: number;
  address: string;
  coin_name: string;
  contract_address: string;
  verificationcode: string;
  /** Seconds since the epoch; the server refuses stale requests. */
  t: number;
}

/** The form fields of a signed request. */
export function signedForm(payload: object, salt: string = WALLET_MIDDLE_SALT): URLSearchParams {
  const data = JSON.stringify(payload);
  return new URLSearchParams({ data, sign: md5(data + salt) });
}
