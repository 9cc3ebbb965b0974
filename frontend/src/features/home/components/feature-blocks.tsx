import { useTranslation } from 'react-i18next';

import { BoltIcon, HeadsetIcon, LayersIcon, ShieldIcon } from '@/components/icons';

const FEATURES = [
  { icon: ShieldIcon, title: 'home.features.secureTitle', text: 'home.features.secureText' },
  { icon: BoltIcon, title: 'home.features.fastTitle', text: 'home.features.fastText' },
  { icon: LayersIcon, title: 'home.features.productsTitle', text: 'home.features.productsText' },
  { icon: HeadsetIcon, title: 'home.features.supportTitle', text: 'home.features.supportText' },
] as const;

export function FeatureBlocks() {
  const { t } = useTranslation();
  return (
    <section className="features" aria-label={t('home.features.title')}>
      <h2>{t('home.features.title')}</h2>
      <div className="feature-grid">
        {FEATURES.map(({ icon: FeatureIcon, title, text }) => (
          <article key={title} className="feature">
            <FeatureIcon width={22} height={22} />
            <h3>{t(title)}</h3>
            <p className="muted">{t(text)}</p>
          </article>
        ))}
      </div>
    </section>
  );
}
