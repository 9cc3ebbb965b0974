/**
 * The P2P texts in every language: nothing left in English (but the words that are the same in that
 * language, listed here) and the same {{placeholders}} as the English text.
 */
import { describe, expect, it } from 'vitest';

import en from '@/i18n/p2p/en.json';
import fr from '@/i18n/p2p/fr.json';
import gm from '@/i18n/p2p/gm.json';
import hk from '@/i18n/p2p/hk.json';
import jp from '@/i18n/p2p/jp.json';

function flat(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value !== 'object' || value === null) return { [prefix]: String(value) };
  return Object.assign({}, ...Object.entries(value).map(([k, v]) => flat(v, prefix ? `${prefix}.${k}` : k)));
}

/** Keys whose text is rightly the same as in English: brand names and words the language shares. */
const SAME_AS_ENGLISH: Record<string, string[]> = {
  hk: [],
  jp: [],
  gm: [
    'methods.alipay',
    'market.currency',
    'adForm.currency',
    'market.limits',
    'order.limits',
    'shop.limits',
    'order.amount',
    'pay.name',
    'pay.bank',
    'by.system',
    'shop.status',
    'shop.filter.online',
  ],
  fr: ['methods.alipay', 'methods.wxpay', 'shop.actions', 'adForm.minutes'],
};

const english = flat(en);
const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

describe.each(Object.entries({ hk, jp, gm, fr }))('p2p texts in %s', (lang, texts) => {
  const translated = flat(texts);

  it('leaves nothing in English', () => {
    const same = Object.keys(english).filter((k) => translated[k] === english[k] && !SAME_AS_ENGLISH[lang]!.includes(k));
    expect(same).toEqual([]);
  });

  it('keeps the placeholders of every text', () => {
    const wrong = Object.keys(english).filter((k) => placeholders(translated[k] ?? '').join() !== placeholders(english[k]!).join());
    expect(wrong).toEqual([]);
  });
});
