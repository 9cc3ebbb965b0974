/**
 * The operator console (issue 16) at /admin: a lazily loaded section with its own layout, stores,
 * session and texts, so none of it reaches the home page's bundle.
 */
import './i18n';
import './admin.css';

import { useEffect, useState } from 'react';
import { Route, Routes } from 'react-router-dom';

import { AdminLayout, RoleGate } from './components/admin-layout';
import { AppealsPage } from './components/appeals-page';
import { AuditPage } from './components/audit-page';
import { ChainPage } from './components/chain-page';
import { ConservationPage } from './components/conservation-page';
import { ContentPage } from './components/content-page';
import { CurrenciesPage } from './components/currencies-page';
import { DashboardPage } from './components/dashboard-page';
import { DepositsPage } from './components/deposits-page';
import { LoginPage } from './components/login-page';
import { MarketsPage } from './components/markets-page';
import { PasswordPage } from './components/password-page';
import { PlacementPage } from './components/placement-page';
import { ProductsPage } from './components/products-page';
import { RealNamesPage } from './components/real-names-page';
import { SmsPage } from './components/sms-page';
import { UsersPage } from './components/users-page';
import { WithdrawalsPage } from './components/withdrawals-page';
import { AdminContext, AdminStore } from './stores/admin-store';

export default function AdminApp() {
  const [store] = useState(() => new AdminStore());
  useEffect(() => {
    void store.session.restore();
  }, [store]);

  return (
    <AdminContext.Provider value={store}>
      <div className="adm-root">
        <Routes>
          <Route path="login" element={<LoginPage />} />
          <Route path="password" element={<PasswordPage />} />
          <Route element={<AdminLayout />}>
            <Route index element={<RoleGate screen="dashboard"><DashboardPage /></RoleGate>} />
            <Route path="real-names" element={<RoleGate screen="realNames"><RealNamesPage /></RoleGate>} />
            <Route path="withdrawals" element={<RoleGate screen="withdrawals"><WithdrawalsPage /></RoleGate>} />
            <Route path="deposits" element={<RoleGate screen="deposits"><DepositsPage /></RoleGate>} />
            <Route path="conservation" element={<RoleGate screen="conservation"><ConservationPage /></RoleGate>} />
            <Route path="chain" element={<RoleGate screen="chain"><ChainPage /></RoleGate>} />
            <Route path="appeals" element={<RoleGate screen="appeals"><AppealsPage /></RoleGate>} />
            <Route path="users" element={<RoleGate screen="users"><UsersPage /></RoleGate>} />
            <Route path="sms" element={<RoleGate screen="sms"><SmsPage /></RoleGate>} />
            <Route path="content" element={<RoleGate screen="content"><ContentPage /></RoleGate>} />
            <Route path="markets" element={<RoleGate screen="markets"><MarketsPage /></RoleGate>} />
            <Route path="currencies" element={<RoleGate screen="currencies"><CurrenciesPage /></RoleGate>} />
            <Route path="placement" element={<RoleGate screen="placement"><PlacementPage /></RoleGate>} />
            <Route path="products" element={<RoleGate screen="products"><ProductsPage /></RoleGate>} />
            <Route path="audit" element={<RoleGate screen="audit"><AuditPage /></RoleGate>} />
            <Route path="*" element={<RoleGate screen="dashboard"><DashboardPage /></RoleGate>} />
          </Route>
        </Routes>
      </div>
    </AdminContext.Provider>
  );
}
