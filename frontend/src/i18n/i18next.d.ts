import 'i18next';

import type adminEn from './admin/en.json';
import type earnEn from './earn/en.json';
import type en from './en.json';
import type feesEn from './fees/en.json';
import type leverEn from './lever/en.json';
import type microEn from './micro/en.json';
import type p2pEn from './p2p/en.json';
import type personalEn from './personal/en.json';
import type spotEn from './spot/en.json';
import type walletEn from './wallet/en.json';

// Makes t('some.key') type-checked against en.json.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof en;
      spot: typeof spotEn;
      wallet: typeof walletEn;
      personal: typeof personalEn;
      lever: typeof leverEn;
      micro: typeof microEn;
      earn: typeof earnEn;
      p2p: typeof p2pEn;
      fees: typeof feesEn;
      admin: typeof adminEn;
    };
  }
}
