/** The `micro` texts (second contracts), registered when the second-contract page loads (they stay out of the home page). */
import { registerNamespace } from '@/i18n';
import en from '@/i18n/micro/en.json';
import fr from '@/i18n/micro/fr.json';
import gm from '@/i18n/micro/gm.json';
import hk from '@/i18n/micro/hk.json';
import jp from '@/i18n/micro/jp.json';

registerNamespace('micro', { en, hk, jp, gm, fr });
