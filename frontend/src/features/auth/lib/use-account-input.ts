/** The form state the three access pages (login, register, forgotten password) share, kept out of their JSX. */
import { type Dispatch, type SetStateAction, useState } from 'react';

import type { PhoneValue } from '@/components/form/phone-field';
import type { AccountKind } from '@/lib/validation';

/** The account typed in an access form: the chosen tab, the e-mail and the phone with its country. */
export interface AccountInput {
  kind: AccountKind;
  setKind: (kind: AccountKind) => void;
  email: string;
  setEmail: (email: string) => void;
  phone: PhoneValue;
  /** Stable (a state setter): the phone field calls it from an effect. */
  setPhone: Dispatch<SetStateAction<PhoneValue>>;
  /** The e-mail or the mobile number, whichever the tab asks for. */
  account: string;
}

const NO_PHONE: PhoneValue = { areaId: null, areaCode: '', mobile: '' };

/** State of the account fields, empty on the e-mail tab unless `initial` says otherwise. */
export function useAccountInput(initial: { kind?: AccountKind; email?: string; phone?: PhoneValue } = {}): AccountInput {
  const [kind, setKind] = useState<AccountKind>(initial.kind ?? 'email');
  const [email, setEmail] = useState(initial.email ?? '');
  const [phone, setPhone] = useState<PhoneValue>(initial.phone ?? NO_PHONE);
  return { kind, setKind, email, setEmail, phone, setPhone, account: kind === 'email' ? email : phone.mobile };
}
