/** Every route path of the app, in one place. */
export const paths = {
  root: '/',
  home: '/home',
  trade: '/trade',
  lever: '/lever',
  second: '/second',
  mining: '/mining',
  assets: '/assets',
  login: '/login',
  register: '/register',
} as const;
