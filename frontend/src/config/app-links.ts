/**
 * Where the mobile apps are published. An operator points these at the store pages of their
 * own apps; until then they lead to the stores' front pages.
 */
export const APP_DOWNLOAD_LINKS = {
  ios: 'https://apps.apple.com/',
  android: 'https://play.google.com/store/apps',
} as const;
