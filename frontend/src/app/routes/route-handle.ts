import type { ParseKeys } from 'i18next';

/** What a route tells the shell about itself (react-router `handle`). */
export interface RouteHandle {
  /** Translation key of the page's name. */
  title: ParseKeys;
}

export function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && typeof (value as RouteHandle).title === 'string';
}
