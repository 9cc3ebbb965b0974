import { createContext, useContext } from 'react';

import { createAdminClient, type AdminTransport } from '../api/admin-client';
import { AuditStore } from './audit-store';
import { ContentStore } from './content-store';
import { CurrenciesStore } from './currencies-store';
import { DepositsStore } from './deposits-store';
import { AppealsStore, chainResource, conservationResource, dashboardResource, RealNamesStore } from './queues-store';
import { MarketsStore } from './markets-store';
import { PlacementStore } from './placement-store';
import { ProductsStore } from './products-store';
import { AdminSessionStore } from './session-store';
import { SmsStore } from './sms-store';
import { UsersStore } from './users-store';
import { WithdrawalsStore } from './withdrawals-store';

/** The console's stores, one per domain, over the console's own transport. */
export class AdminStore {
  readonly session: AdminSessionStore;
  readonly dashboard;
  readonly realNames: RealNamesStore;
  readonly withdrawals: WithdrawalsStore;
  readonly deposits: DepositsStore;
  readonly conservation;
  readonly chain;
  readonly appeals: AppealsStore;
  readonly users: UsersStore;
  readonly content: ContentStore;
  readonly markets: MarketsStore;
  readonly currencies: CurrenciesStore;
  readonly placement: PlacementStore;
  readonly products: ProductsStore;
  readonly audit: AuditStore;
  readonly sms: SmsStore;

  constructor(api?: AdminTransport) {
    const transport = api ?? createAdminClient(() => this.session.signedOut());
    this.session = new AdminSessionStore(transport);
    this.dashboard = dashboardResource(transport);
    this.realNames = new RealNamesStore(transport);
    this.withdrawals = new WithdrawalsStore(transport);
    this.deposits = new DepositsStore(transport);
    this.conservation = conservationResource(transport);
    this.chain = chainResource(transport);
    this.appeals = new AppealsStore(transport);
    this.users = new UsersStore(transport);
    this.content = new ContentStore(transport);
    this.markets = new MarketsStore(transport);
    this.currencies = new CurrenciesStore(transport);
    this.placement = new PlacementStore(transport);
    this.products = new ProductsStore(transport);
    this.audit = new AuditStore(transport);
    this.sms = new SmsStore(transport);
  }
}

export const AdminContext = createContext<AdminStore | null>(null);

export function useAdmin(): AdminStore {
  const store = useContext(AdminContext);
  if (!store) throw new Error('useAdmin() must be used inside <AdminContext.Provider>');
  return store;
}
