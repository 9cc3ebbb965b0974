import { observer } from 'mobx-react-lite';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { paths } from '@/config/paths';
import { useLiveMarket } from '@/hooks/use-live-market';
import { NOTICE_CATEGORY } from '@/stores/content-store';
import { useStores } from '@/stores/root-store';

import { AppDownload } from './components/app-download';
import { Carousel } from './components/carousel';
import { FeatureBlocks } from './components/feature-blocks';
import { HomeMarketTable } from './components/home-market-table';
import { NoticeStrip } from './components/notice-strip';
import { TipsPopup } from './components/tips-popup';
import { TopTickers } from './components/top-tickers';
import './home.css';

/** Home (spec §2): carousel, top tickers, notices, the market table, features, apps, popup. */
const HomePage = observer(function HomePage() {
  const { t } = useTranslation();
  const { content, session } = useStores();
  useLiveMarket();

  useEffect(() => {
    void content.loadNotices(NOTICE_CATEGORY.banners).catch(() => undefined);
    void content.loadNotices(NOTICE_CATEGORY.announcements).catch(() => undefined);
  }, [content]);

  return (
    <div className="home">
      <section className="hero">
        <div className="hero-copy">
          <h1>{t('home.heroTitle')}</h1>
          <p className="muted">{t('home.heroText')}</p>
          <div className="hero-actions">
            {session.isLoggedIn ? (
              <Link className="button large" to={paths.trade}>
                {t('home.tradeNow')}
              </Link>
            ) : (
              <>
                <Link className="button large" to={paths.register}>
                  {t('home.signUpNow')}
                </Link>
                <Link className="button ghost large" to={paths.trade}>
                  {t('home.tradeNow')}
                </Link>
              </>
            )}
          </div>
        </div>
        <Carousel />
      </section>
      <NoticeStrip />
      <TopTickers />
      <HomeMarketTable />
      <FeatureBlocks />
      <AppDownload />
      <TipsPopup />
    </div>
  );
});

export default HomePage;
