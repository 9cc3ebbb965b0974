import { observer } from 'mobx-react-lite';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { noticePath } from '@/config/paths';
import { NOTICE_CATEGORY } from '@/stores/content-store';
import { useStores } from '@/stores/root-store';

const SLIDE_MS = 5000;

/** Banner notices (category 23) as slides; each opens its notice. */
export const Carousel = observer(function Carousel() {
  const { t } = useTranslation();
  const { content } = useStores();
  const slides = content.banners;
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);

  useEffect(() => {
    if (paused || slides.length < 2) return undefined;
    const timer = setInterval(() => setIndex((i) => (i + 1) % slides.length), SLIDE_MS);
    return () => clearInterval(timer);
  }, [paused, slides.length]);

  if (!slides.length) return <div className="carousel carousel-empty" aria-hidden="true" />;
  const current = Math.min(index, slides.length - 1);

  return (
    <section className="carousel" aria-roledescription="carousel" aria-label={t('home.banners')}
      onMouseEnter={() => setPaused(true)} onMouseLeave={() => setPaused(false)}>
      <div className="carousel-track" style={{ transform: `translateX(-${current * 100}%)` }}>
        {slides.map((slide, i) => (
          <Link key={slide.id} className="carousel-slide" to={noticePath(slide.id, NOTICE_CATEGORY.banners)}
            aria-hidden={i !== current} tabIndex={i === current ? 0 : -1}>
            <img src={slide.banner} alt={slide.title} loading={i === 0 ? 'eager' : 'lazy'} />
          </Link>
        ))}
      </div>
      <div className="carousel-dots">
        {slides.map((slide, i) => (
          <button key={slide.id} type="button" className={i === current ? 'dot active' : 'dot'}
            aria-label={slide.title} aria-current={i === current} onClick={() => setIndex(i)} />
        ))}
      </div>
    </section>
  );
});
