/**
 * The console's `admin` texts, registered when the console loads. The issue asked for English and
 * Traditional Chinese only, so Japanese, German and French operators read the English texts, except
 * the SMS outbox page (issue 30), which is in all five languages (`i18n/admin/sms/`).
 */
import { registerNamespace } from '@/i18n';
import en from '@/i18n/admin/en.json';
import hk from '@/i18n/admin/hk.json';
import smsFr from '@/i18n/admin/sms/fr.json';
import smsGm from '@/i18n/admin/sms/gm.json';
import smsJp from '@/i18n/admin/sms/jp.json';

/** The English console with one language's SMS page and its menu entry. */
function withSms(sms: typeof smsJp): typeof en {
  return { ...en, menu: { ...en.menu, ...sms.menu }, sms: sms.sms };
}

registerNamespace('admin', { en, hk, jp: withSms(smsJp), gm: withSms(smsGm), fr: withSms(smsFr) });
