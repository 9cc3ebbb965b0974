import { describe, expect, it } from 'vitest';

import adminEn from '../admin/en.json';
import adminHk from '../admin/hk.json';
import adminSmsFr from '../admin/sms/fr.json';
import adminSmsGm from '../admin/sms/gm.json';
import adminSmsJp from '../admin/sms/jp.json';
import earnEn from '../earn/en.json';
import earnFr from '../earn/fr.json';
import earnGm from '../earn/gm.json';
import earnHk from '../earn/hk.json';
import earnJp from '../earn/jp.json';
import personalEn from '../personal/en.json';
import personalFr from '../personal/fr.json';
import personalGm from '../personal/gm.json';
import personalHk from '../personal/hk.json';
import personalJp from '../personal/jp.json';
import en from '../en.json';
import feesEn from '../fees/en.json';
import feesFr from '../fees/fr.json';
import feesGm from '../fees/gm.json';
import feesHk from '../fees/hk.json';
import feesJp from '../fees/jp.json';
import fr from '../fr.json';
import gm from '../gm.json';
import hk from '../hk.json';
import jp from '../jp.json';
import leverEn from '../lever/en.json';
import leverFr from '../lever/fr.json';
import leverGm from '../lever/gm.json';
import leverHk from '../lever/hk.json';
import leverJp from '../lever/jp.json';
import microEn from '../micro/en.json';
import microFr from '../micro/fr.json';
import microGm from '../micro/gm.json';
import microHk from '../micro/hk.json';
import microJp from '../micro/jp.json';
import { LANGUAGES } from '../languages';
import p2pEn from '../p2p/en.json';
import p2pFr from '../p2p/fr.json';
import p2pGm from '../p2p/gm.json';
import p2pHk from '../p2p/hk.json';
import p2pJp from '../p2p/jp.json';
import spotEn from '../spot/en.json';
import spotFr from '../spot/fr.json';
import spotGm from '../spot/gm.json';
import spotHk from '../spot/hk.json';
import spotJp from '../spot/jp.json';
import walletEn from '../wallet/en.json';
import walletFr from '../wallet/fr.json';
import walletGm from '../wallet/gm.json';
import walletHk from '../wallet/hk.json';
import walletJp from '../wallet/jp.json';

/** All leaf keys of a nested translation object, as dotted paths, sorted. */
function flattenKeys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value)
    .flatMap(([key, child]) => flattenKeys(child, prefix ? `${prefix}.${key}` : key))
    .sort();
}

/** Every namespace, as language code → its translations. */
const namespaces: Record<string, Record<string, unknown>> = {
  translation: { en, hk, jp, gm, fr },
  spot: { en: spotEn, hk: spotHk, jp: spotJp, gm: spotGm, fr: spotFr },
  wallet: { en: walletEn, hk: walletHk, jp: walletJp, gm: walletGm, fr: walletFr },
  personal: { en: personalEn, hk: personalHk, jp: personalJp, gm: personalGm, fr: personalFr },
  lever: { en: leverEn, hk: leverHk, jp: leverJp, gm: leverGm, fr: leverFr },
  micro: { en: microEn, hk: microHk, jp: microJp, gm: microGm, fr: microFr },
  earn: { en: earnEn, hk: earnHk, jp: earnJp, gm: earnGm, fr: earnFr },
  p2p: { en: p2pEn, hk: p2pHk, jp: p2pJp, gm: p2pGm, fr: p2pFr },
  fees: { en: feesEn, hk: feesHk, jp: feesJp, gm: feesGm, fr: feesFr },
};

describe.each(Object.entries(namespaces))('translation files of namespace %s', (_ns, locales) => {
  const enKeys = flattenKeys(locales.en);

  it('has a file for every supported language', () => {
    expect(Object.keys(locales).sort()).toEqual(LANGUAGES.map((l) => l.code).sort());
  });

  it.each(Object.keys(locales))('%s.json has exactly the keys of en.json', (code) => {
    expect(flattenKeys(locales[code])).toEqual(enKeys);
  });

  it.each(Object.keys(locales))('%s.json has no empty strings', (code) => {
    const walk = (v: unknown): string[] =>
      typeof v === 'object' && v !== null ? Object.values(v).flatMap(walk) : [String(v)];
    expect(walk(locales[code]).filter((s) => s.trim() === '')).toEqual([]);
  });
});

// The operator console is English and Traditional Chinese only (issue 16); the other languages read
// its English texts (features/admin/i18n.ts), so only these two files must agree.
describe('translation files of namespace admin (en and hk only)', () => {
  it('hk.json has exactly the keys of en.json', () => {
    expect(flattenKeys(adminHk)).toEqual(flattenKeys(adminEn));
  });

  it.each([['en', adminEn], ['hk', adminHk]])('%s.json has no empty strings', (_code, locale) => {
    const walk = (v: unknown): string[] =>
      typeof v === 'object' && v !== null ? Object.values(v).flatMap(walk) : [String(v)];
    expect(walk(locale).filter((s) => s.trim() === '')).toEqual([]);
  });
});

// The console's SMS outbox page (issue 30) is in all five languages: the other three carry its texts
// and its menu entry, with exactly the keys English has for them.
describe('the SMS outbox page of namespace admin, in jp, gm and fr', () => {
  const english = { menu: { sms: adminEn.menu.sms }, sms: adminEn.sms };

  it.each([['jp', adminSmsJp], ['gm', adminSmsGm], ['fr', adminSmsFr]])('%s has the English keys, none empty', (_code, locale) => {
    expect(flattenKeys(locale)).toEqual(flattenKeys(english));
    const walk = (v: unknown): string[] =>
      typeof v === 'object' && v !== null ? Object.values(v).flatMap(walk) : [String(v)];
    expect(walk(locale).filter((s) => s.trim() === '')).toEqual([]);
  });
});
