/** The `fees` texts, registered when the fee page loads (they stay out of the home page). */
import { registerNamespace } from '@/i18n';
import en from '@/i18n/fees/en.json';
import fr from '@/i18n/fees/fr.json';
import gm from '@/i18n/fees/gm.json';
import hk from '@/i18n/fees/hk.json';
import jp from '@/i18n/fees/jp.json';

registerNamespace('fees', { en, hk, jp, gm, fr });
