/**
 * While a P2P page is shown: the socket logged in with the session's token (again when it changes)
 * and subscribed to the user's LEGAL_ORDER channel; `onOrder` gets the id of each order that moved.
 */
import { useEffect } from 'react';

import { getSocket, useChannel } from '@/lib/socket';
import { useStores } from '@/stores/root-store';

import type { LegalOrderPush } from '../types';

export const LEGAL_ORDER_CHANNEL = 'LEGAL_ORDER';

export function useOrderPushes(onOrder: (orderId: number | undefined) => void): void {
  const { session } = useStores();
  const socket = getSocket();
  useEffect(() => {
    socket.syncLogin();
  }, [socket, session.token]);
  useChannel<LegalOrderPush>(session.isLoggedIn ? LEGAL_ORDER_CHANNEL : null, (m) => onOrder(m.order?.id), socket);
}
