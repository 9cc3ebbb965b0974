/** The `wallet` texts, registered when the first wallet page loads (they stay out of the home page). */
import { registerNamespace } from '@/i18n';
import en from '@/i18n/wallet/en.json';
import fr from '@/i18n/wallet/fr.json';
import gm from '@/i18n/wallet/gm.json';
import hk from '@/i18n/wallet/hk.json';
import jp from '@/i18n/wallet/jp.json';

registerNamespace('wallet', { en, hk, jp, gm, fr });
