import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, RouterProvider, type RouteObject } from 'react-router-dom';

import { AppLayout } from '@/components/layout/app-layout';
import { PageLoader } from '@/components/page-loader';
import { paths } from '@/config/paths';
import HomePage from '@/features/home/home-page';

import { RequireAuth } from './require-auth';
import { RouteError } from './routes/route-error';

// Route-level code splitting: the trade page (and ECharts with it) loads only when opened.
const spotRoute = { lazy: async () => ({ Component: (await import('@/features/spot/spot-page')).default }) };

/** Every page but home is its own chunk, fetched when its route is first opened. */
function page(load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load()).default }) };
}

// One page per shape: the five account groups share a component, and so do the record lists
// (/personal/transactionLog and /coinlog show the account records) and the two binding pages.
const accountPage = page(() => import('@/features/wallet/account-page'));
const recordsPage = page(() => import('@/features/wallet/records-page'));
const bindPage = page(() => import('@/features/personal/bind-page'));
// The P2P order list and order page serve the taker (/legalIndex) and the merchant (/myshop).
const p2pOrders = page(() => import('@/features/p2p/orders-page'));
const p2pOrder = page(() => import('@/features/p2p/order-detail-page'));

/** Pages that need a token: visitors are sent to login with the "log in and trade" message. */
function loginOnly(children: RouteObject[]): RouteObject {
  return { element: <RequireAuth />, children };
}

const routes: RouteObject[] = [
  // The operator console: its own layout and session, one lazy chunk (issue 16).
  { path: '/admin/*', errorElement: <RouteError />, hydrateFallbackElement: <PageLoader />, ...page(() => import('@/features/admin/admin-app')) },
  {
    path: paths.root,
    element: <AppLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageLoader />,
    children: [
      { index: true, element: <Navigate to={paths.home} replace /> },
      { path: paths.home, element: <HomePage /> },
      { path: paths.markets, ...page(() => import('@/features/market/market-page')) },
      { path: paths.trade, ...spotRoute },
      { path: paths.notice, ...page(() => import('@/features/content/notice-page')) },
      { path: paths.white, ...page(() => import('@/features/content/white-page')) },
      { path: paths.fees, ...page(() => import('@/features/fees/fees-page')) },
      { path: paths.login, ...page(() => import('@/features/auth/login-page')) },
      { path: paths.register, ...page(() => import('@/features/auth/register-page')) },
      { path: paths.forgetPassword, ...page(() => import('@/features/auth/forget-password-page')) },
      { path: paths.deposit, ...page(() => import('@/features/earn/lock/lock-page')) },
      {
        path: paths.legalIndex.root,
        children: [
          { index: true, element: <Navigate to={paths.legalIndex.legal} replace /> },
          { path: paths.legalIndex.legal, ...page(() => import('@/features/p2p/market-page')) },
          loginOnly([
            { path: paths.legalIndex.orders, ...p2pOrders },
            { path: paths.legalIndex.orderDetail, ...p2pOrder },
          ]),
        ],
      },
      { path: paths.shoufa, ...page(() => import('@/features/earn/sales/sales-page')) },
      { path: paths.shoufaInfo, ...page(() => import('@/features/earn/sales/sales-info-page')) },
      { path: paths.mining, ...page(() => import('@/features/earn/mining/mining-page')) },
      { path: paths.miningList, ...page(() => import('@/features/earn/mining/mining-list-page')) },
      { path: paths.miningInfo, ...page(() => import('@/features/earn/mining/mining-info-page')) },
      { path: paths.listing, ...page(() => import('@/features/earn/listing/listing-page')) },
      { path: paths.listingInfo, ...page(() => import('@/features/earn/listing/listing-info-page')) },
      loginOnly([
        { path: paths.lever, ...page(() => import('@/features/lever/lever-page')) },
        { path: paths.second, ...page(() => import('@/features/micro/micro-page')) },
        { path: paths.miningOrder, ...page(() => import('@/features/earn/mining/mining-order-page')) },
        { path: paths.listingOrder, ...page(() => import('@/features/earn/listing/listing-order-page')) },
        {
          path: paths.myshop.root,
          children: [
            { index: true, element: <Navigate to={paths.myshop.myShopOrders} replace /> },
            { path: paths.myshop.myShopOrders, ...page(() => import('@/features/p2p/shop-page')) },
            { path: paths.myshop.shopOrders, ...p2pOrders },
            { path: paths.myshop.shopOrderDetail, ...p2pOrder },
          ],
        },
        {
          path: paths.assets.root,
          children: [
            { index: true, element: <Navigate to={paths.assets.tradeAccount} replace /> },
            { path: paths.assets.tradeAccount, ...accountPage },
            { path: paths.assets.legalAccount, ...accountPage },
            { path: paths.assets.leverAccount, ...accountPage },
            { path: paths.assets.secondAccount, ...accountPage },
            { path: paths.assets.financialAccount, ...accountPage },
            { path: paths.assets.dealRecords, ...recordsPage },
            { path: paths.assets.transfer, ...page(() => import('@/features/wallet/transfer-page')) },
            { path: paths.assets.chongzhi, ...page(() => import('@/features/wallet/deposit-page')) },
            { path: paths.assets.withdral, ...page(() => import('@/features/wallet/withdraw-page')) },
            { path: paths.assets.transferLog, ...page(() => import('@/features/wallet/transfer-log-page')) },
          ],
        },
        {
          path: paths.personal.root,
          children: [
            { index: true, element: <Navigate to={paths.personal.accountSettings} replace /> },
            { path: paths.personal.accountSettings, ...page(() => import('@/features/personal/account-settings-page')) },
            { path: paths.personal.transactionLog, ...recordsPage },
            {
              path: paths.personal.collectionSettings,
              ...page(() => import('@/features/personal/collection-settings-page')),
            },
            { path: paths.personal.authentication, ...page(() => import('@/features/personal/authentication-page')) },
            { path: paths.personal.bindAddr, ...page(() => import('@/features/personal/bind-addr-page')) },
            { path: paths.personal.feedback, ...page(() => import('@/features/personal/feedback-page')) },
          ],
        },
        { path: paths.resetPassword, ...page(() => import('@/features/personal/reset-password-page')) },
        { path: paths.tradePassword, ...page(() => import('@/features/personal/trade-password-page')) },
        { path: paths.bindAccount, ...bindPage },
        { path: paths.bindPhone, ...bindPage },
        { path: paths.coinlog, ...recordsPage },
      ]),
      { path: '*', ...page(() => import('./routes/not-found')) },
    ],
  },
];

export const router = createBrowserRouter(routes);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
