/** The `assets` texts, registered when the first assets page loads (they stay out of the home page). */
import { registerNamespace } from '@/i18n';
import en from '@/i18n/assets/en.json';
import fr from '@/i18n/assets/fr.json';
import gm from '@/i18n/assets/gm.json';
import hk from '@/i18n/assets/hk.json';
import jp from '@/i18n/assets/jp.json';

registerNamespace('assets', { en, hk, jp, gm, fr });
