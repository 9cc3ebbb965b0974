import { createBrowserRouter, Navigate, RouterProvider } from 'react-router-dom';

import { AppLayout } from '@/components/layout/app-layout';
import { paths } from '@/config/paths';

import { ComingSoonRoute } from './routes/coming-soon';

// Route-level code splitting: the trade page (and ECharts with it) loads only when opened.
const tradeRoute = { lazy: async () => ({ Component: (await import('@/features/trade/trade-page')).default }) };
import { HomeRoute } from './routes/home';

const router = createBrowserRouter([
  {
    path: paths.root,
    element: <AppLayout />,
    children: [
      { index: true, element: <Navigate to={paths.home} replace /> },
      { path: paths.home, element: <HomeRoute /> },
      { path: paths.trade, ...tradeRoute },
      // Every page that is not built yet (trade, lever, second, mining, assets, login, ...).
      { path: '*', element: <ComingSoonRoute /> },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
