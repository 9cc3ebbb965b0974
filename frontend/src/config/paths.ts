/** Every route path of the app (spec shell §2), in one place. */
export const paths = {
  root: '/',
  home: '/home',
  markets: '/markets',
  deposit: '/deposit',
  legalIndex: {
    root: '/legalIndex',
    legal: '/legalIndex/legal',
    orders: '/legalIndex/orders',
    orderDetail: '/legalIndex/orderdetail',
  },
  myshop: {
    root: '/myshop',
    myShopOrders: '/myshop/myshoporders',
    shopOrders: '/myshop/shoporders',
    shopOrderDetail: '/myshop/shoporderdetail',
  },
  trade: '/trade',
  lever: '/lever',
  second: '/second',
  notice: '/notice',
  white: '/white',
  fees: '/fees',
  shoufa: '/shoufa',
  shoufaInfo: '/shoufa/info',
  mining: '/mining',
  miningList: '/mining/list',
  miningInfo: '/mining/info',
  miningOrder: '/mining/order',
  listing: '/listing',
  listingInfo: '/listing/info',
  listingOrder: '/listing/order',
  login: '/login',
  register: '/register',
  forgetPassword: '/forgetPassword',
  assets: {
    root: '/assets',
    tradeAccount: '/assets/tradeAccount',
    legalAccount: '/assets/legalAccount',
    leverAccount: '/assets/leverAccount',
    secondAccount: '/assets/secondAccount',
    financialAccount: '/assets/financialAccount',
    dealRecords: '/assets/dealRecords',
    transfer: '/assets/transfer',
    chongzhi: '/assets/chongzhi',
    withdral: '/assets/withdral',
    transferLog: '/assets/transferLog',
  },
  personal: {
    root: '/personal',
    accountSettings: '/personal/accountSettings',
    transactionLog: '/personal/transactionLog',
    collectionSettings: '/personal/collectionSettings',
    authentication: '/personal/authentication',
    bindAddr: '/personal/bindAddr',
    feedback: '/personal/feedback',
  },
  resetPassword: '/resetPassword',
  tradePassword: '/tradePassword',
  bindAccount: '/bindAccount',
  bindPhone: '/bindPhone',
  coinlog: '/coinlog',
} as const;

/** A notice page link (spec: query id and category_id). */
export function noticePath(id: number | null, categoryId: number): string {
  const query = new URLSearchParams({ category_id: String(categoryId) });
  if (id !== null) query.set('id', String(id));
  return `${paths.notice}?${query.toString()}`;
}
