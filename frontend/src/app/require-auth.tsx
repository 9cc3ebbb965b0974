import { observer } from 'mobx-react-lite';
import { Navigate, Outlet, useLocation } from 'react-router-dom';

import { type LoginReason, loginPath } from '@/lib/navigation';
import { useStores } from '@/stores/root-store';

/**
 * Guards token-only pages (spec §6): a visitor is sent to login, told to log in and trade,
 * and comes back here after logging in.
 */
export const RequireAuth = observer(function RequireAuth() {
  const { session } = useStores();
  const location = useLocation();
  if (session.isLoggedIn) return <Outlet />;
  if (session.signingOut) return null; // the shell is on its way to /login?type=1
  const reason: LoginReason = 'loginToTrade';
  return <Navigate to={loginPath(location.pathname + location.search)} replace state={{ reason }} />;
});
