/**
 * The console's `admin` texts, registered when the console loads. The issue asks for English and
 * Traditional Chinese only, so Japanese, German and French operators read the English texts.
 */
import { registerNamespace } from '@/i18n';
import en from '@/i18n/admin/en.json';
import hk from '@/i18n/admin/hk.json';

registerNamespace('admin', { en, hk, jp: en, gm: en, fr: en });
