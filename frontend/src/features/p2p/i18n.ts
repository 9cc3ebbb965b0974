/** The `p2p` texts, registered when the first P2P page loads (they stay out of the home page). */
import { registerNamespace } from '@/i18n';
import en from '@/i18n/p2p/en.json';
import fr from '@/i18n/p2p/fr.json';
import gm from '@/i18n/p2p/gm.json';
import hk from '@/i18n/p2p/hk.json';
import jp from '@/i18n/p2p/jp.json';

registerNamespace('p2p', { en, hk, jp, gm, fr });
