import { useLocation, useNavigate } from 'react-router-dom';

import { type LoginReason, loginPath } from '@/lib/navigation';

/** Sends a visitor who tried to buy or trade to login ("log in and trade"), and back here afterwards. */
export function useSendToLogin(): () => void {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  return () => {
    const reason: LoginReason = 'loginToTrade';
    void navigate(loginPath(pathname + search), { state: { reason } });
  };
}
