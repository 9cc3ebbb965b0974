import { createBrowserRouter, Navigate, RouterProvider } from 'react-router-dom';

import { AppLayout } from '@/components/layout/app-layout';
import { paths } from '@/config/paths';

import { ComingSoonRoute } from './routes/coming-soon';
import { HomeRoute } from './routes/home';

const router = createBrowserRouter([
  {
    path: paths.root,
    element: <AppLayout />,
    children: [
      { index: true, element: <Navigate to={paths.home} replace /> },
      { path: paths.home, element: <HomeRoute /> },
      // Every page that is not built yet (trade, lever, second, mining, assets, login, ...).
      { path: '*', element: <ComingSoonRoute /> },
    ],
  },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
