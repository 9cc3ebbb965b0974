/** The `personal` texts, registered when the first personal page loads (they stay out of the home page). */
import { registerNamespace } from '@/i18n';
import en from '@/i18n/personal/en.json';
import fr from '@/i18n/personal/fr.json';
import gm from '@/i18n/personal/gm.json';
import hk from '@/i18n/personal/hk.json';
import jp from '@/i18n/personal/jp.json';

registerNamespace('personal', { en, hk, jp, gm, fr });
