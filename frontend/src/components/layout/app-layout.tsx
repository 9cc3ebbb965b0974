import { Outlet, ScrollRestoration, useLocation } from 'react-router-dom';

import { paths } from '@/config/paths';

import { Footer } from './footer';
import { Header } from './header';
import { LoadingOverlay, Toaster } from './toaster';

/** Trading screens use the whole window; the other pages end with the footer. */
const FULL_SCREEN: readonly string[] = [paths.trade, paths.lever, paths.second];

export function AppLayout() {
  const { pathname } = useLocation();
  const fullScreen = FULL_SCREEN.includes(pathname);
  return (
    <div className={fullScreen ? 'app app-full' : 'app'}>
      <Header />
      <main className="app-main">
        <Outlet />
      </main>
      {!fullScreen && <Footer />}
      <Toaster />
      <LoadingOverlay />
      <ScrollRestoration />
    </div>
  );
}
