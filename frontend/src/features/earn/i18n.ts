/** The `earn` texts, registered when the first earn page loads (they stay out of the home page). */
import { registerNamespace } from '@/i18n';
import en from '@/i18n/earn/en.json';
import fr from '@/i18n/earn/fr.json';
import gm from '@/i18n/earn/gm.json';
import hk from '@/i18n/earn/hk.json';
import jp from '@/i18n/earn/jp.json';

registerNamespace('earn', { en, hk, jp, gm, fr });
