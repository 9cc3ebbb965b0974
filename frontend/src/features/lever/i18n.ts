/** The `lever` texts, registered when the lever page loads (they stay out of the home page). */
import { registerNamespace } from '@/i18n';
import en from '@/i18n/lever/en.json';
import fr from '@/i18n/lever/fr.json';
import gm from '@/i18n/lever/gm.json';
import hk from '@/i18n/lever/hk.json';
import jp from '@/i18n/lever/jp.json';

registerNamespace('lever', { en, hk, jp, gm, fr });
