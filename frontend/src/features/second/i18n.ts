/** The `second` texts, registered when the second-contract page loads (they stay out of the home page). */
import { registerNamespace } from '@/i18n';
import en from '@/i18n/second/en.json';
import fr from '@/i18n/second/fr.json';
import gm from '@/i18n/second/gm.json';
import hk from '@/i18n/second/hk.json';
import jp from '@/i18n/second/jp.json';

registerNamespace('second', { en, hk, jp, gm, fr });
