/**
 * The one HTTP client of the app. Every backend call goes through `apiClient`.
 *
 * The backend answers with an envelope `{ code, msg, data }`:
 *   code 1   → success, resolve `data`
 *   code 0   → business error, reject with `msg`
 *   code 999 → not logged in / token expired: drop the token, reject
 *   code 996 → "handled, stay silent": resolve `undefined`
 *
 * What the user sees (spec §7/§8) is left to an `ApiFeedback` the app registers: a blocking
 * overlay for calls made with `loading`, the success `msg` of calls made with `showMsg`, and every
 * business or network error unless the call is `quiet` (background polling).
 *
 * A POST that moves money (`MONEY_PATHS`) carries an `Idempotency-Key` (docs/decisions.md "The
 * idempotency rule"): one per user action, so a double click or the user's retry after a lost answer
 * is answered with the first answer and moves nothing again.
 */
import { DEFAULT_LANG } from '@/i18n/languages';
import { STORAGE_KEYS, storage } from '@/lib/storage';

export const API_BASE_URL = '/api/';
export const REQUEST_TIMEOUT_MS = 20_000;
export const SYSTEM_ERROR_MESSAGE = 'System error, please try again later.';

export const ResponseCode = {
  Fail: 0,
  Success: 1,
  Silent: 996,
  Unauthorized: 999,
} as const;

export interface ApiEnvelope<T> {
  code: number;
  msg?: string;
  data: T;
}

/**
 * - `business`: the backend answered code 0 (or an unknown code) with a message.
 * - `unauthorized`: code 999, the token was removed.
 * - `network`: fetch failed, timed out, or the answer was not a JSON envelope.
 * - `aborted`: the caller's AbortSignal cancelled the request.
 */
export type ApiErrorKind = 'business' | 'unauthorized' | 'network' | 'aborted';

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** Envelope code when the backend answered, otherwise null. */
  readonly code: number | null;
  /** HTTP status when a response was received, otherwise null. */
  readonly status: number | null;

  constructor(
    message: string,
    kind: ApiErrorKind,
    options: { code?: number | null; status?: number | null; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.kind = kind;
    this.code = options.code ?? null;
    this.status = options.status ?? null;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Appended to the URL as a query string; null/undefined values are skipped. */
  params?: Record<string, QueryValue>;
  /** Another service of the same host with the same envelope (`/walletMiddle/`); `/api/` by default. */
  baseUrl?: string;
  /** Plain objects are sent as JSON; FormData / URLSearchParams / strings are sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Show the blocking loading overlay while the call runs. */
  loading?: boolean;
  /** Show the answer's `msg` as a success message. */
  showMsg?: boolean;
  /** Do not report errors to the user (the caller handles them, or polls in the background). */
  quiet?: boolean;
  /** The key of a money-moving POST, when the caller keeps its own (one is made per user action otherwise). */
  idempotencyKey?: string;
}

/** The POSTs that move money: each carries an `Idempotency-Key` (the server keeps the first answer 24 h). */
export const MONEY_PATHS: ReadonlySet<string> = new Set([
  'tx_in/add',
  'tx_out/add',
  'tx/batch_add',
  'lever/submit',
  'microtrade/submit',
  'account/transfer',
  'account/convert',
  'account/draw',
  'storage_currency/submit_lock',
  'mining/buy',
  'shoufa/buy',
  'listing/buy',
  'legal/order/create',
]);

/**
 * The key of each money-moving action still open: sent again (with the same path and body) while its
 * call is in flight (a double click) or after its outcome was lost (a network error, a timeout, a 5xx
 * answer), so the user's retry is the same request. A definite answer (2xx, 4xx) ends the action: the
 * next identical submit is a new one, with a new key.
 */
const openActions = new Map<string, string>();
const MAX_OPEN_ACTIONS = 100;

function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16)); // also outside secure contexts (randomUUID is not)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function actionOf(path: string, options: RequestOptions, body: BodyInit | undefined): string | null {
  const route = path.replace(/^\/+/, '');
  if (options.method !== 'POST' || options.baseUrl || !MONEY_PATHS.has(route)) return null;
  return `${route}\n${typeof body === 'string' ? body : ''}`;
}

function keyFor(action: string, options: RequestOptions): string {
  const key = options.idempotencyKey ?? openActions.get(action) ?? newKey();
  openActions.delete(action); // re-inserted last: the oldest open actions go first past the cap
  openActions.set(action, key);
  if (openActions.size > MAX_OPEN_ACTIONS) openActions.delete(openActions.keys().next().value!);
  return key;
}

/** How the app shows a call's progress and outcome; see `setApiFeedback`. */
export interface ApiFeedback {
  loading(active: boolean): void;
  success(message: string): void;
  error(error: ApiError): void;
}

/** Whether the 999 answer found a token to drop (the spec shows a message only then). */
export interface UnauthorizedInfo {
  hadToken: boolean;
}

let unauthorizedHandler: ((info: UnauthorizedInfo) => void) | null = null;
let feedback: ApiFeedback | null = null;

/** Register what to do after a 999 answer (e.g. redirect to the login page). */
export function setUnauthorizedHandler(handler: ((info: UnauthorizedInfo) => void) | null): void {
  unauthorizedHandler = handler;
}

/** Register how calls are shown to the user (overlay, success and error messages). */
export function setApiFeedback(next: ApiFeedback | null): void {
  feedback = next;
}

function buildUrl(path: string, params?: RequestOptions['params'], base = API_BASE_URL): string {
  const url = base + path.replace(/^\/+/, '');
  if (!params) return url;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) query.append(key, String(value));
  }
  const qs = query.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

function buildHeaders(options: RequestOptions): Headers {
  const headers = new Headers({ Accept: 'application/json' });
  headers.set('lang', storage.get(STORAGE_KEYS.lang) || DEFAULT_LANG);
  const token = storage.get(STORAGE_KEYS.token);
  if (token) headers.set('Authorization', token);
  for (const [key, value] of Object.entries(options.headers ?? {})) headers.set(key, value);
  return headers;
}

function encodeBody(body: unknown, headers: Headers): BodyInit | undefined {
  if (body === undefined || body === null) return undefined;
  if (
    typeof body === 'string' ||
    body instanceof FormData ||
    body instanceof URLSearchParams ||
    body instanceof Blob
  ) {
    return body;
  }
  if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  return JSON.stringify(body);
}

function isEnvelope(value: unknown): value is ApiEnvelope<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number';
}

async function request<T>(path: string, options: RequestOptions = {}): Promise<T | undefined> {
  const overlay = options.loading ? feedback : null;
  overlay?.loading(true);
  try {
    return await send<T>(path, options);
  } catch (error) {
    if (error instanceof ApiError && !options.quiet && (error.kind === 'business' || error.kind === 'network')) {
      feedback?.error(error);
    }
    throw error;
  } finally {
    overlay?.loading(false);
  }
}

async function send<T>(path: string, options: RequestOptions): Promise<T | undefined> {
  const headers = buildHeaders(options);
  const body = encodeBody(options.body, headers);
  const action = actionOf(path, options, body);
  if (action === null) return exchange<T>(path, options, headers, body);
  headers.set('Idempotency-Key', keyFor(action, options));
  try {
    const answer = await exchange<T>(path, options, headers, body);
    openActions.delete(action);
    return answer;
  } catch (error) {
    const lost =
      error instanceof ApiError && (error.kind !== 'business' || (error.status ?? 0) >= 500) && error.kind !== 'unauthorized';
    if (!lost) openActions.delete(action);
    throw error;
  }
}

async function exchange<T>(
  path: string,
  options: RequestOptions,
  headers: Headers,
  body: BodyInit | undefined,
): Promise<T | undefined> {
  const controller = new AbortController();
  const external = options.signal;
  const onExternalAbort = () => controller.abort(external?.reason);
  if (external?.aborted) onExternalAbort();
  else external?.addEventListener('abort', onExternalAbort, { once: true });
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? REQUEST_TIMEOUT_MS);

  let response: Response;
  let payload: unknown;
  try {
    response = await fetch(buildUrl(path, options.params, options.baseUrl), {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: controller.signal,
    });
    payload = await response.json();
  } catch (cause) {
    if (external?.aborted) throw new ApiError('Request aborted', 'aborted', { cause });
    // Network failure, timeout, or a body that is not JSON (e.g. proxy error page).
    throw new ApiError(SYSTEM_ERROR_MESSAGE, 'network', { cause });
  } finally {
    clearTimeout(timer);
    external?.removeEventListener('abort', onExternalAbort);
  }

  if (!isEnvelope(payload)) {
    throw new ApiError(SYSTEM_ERROR_MESSAGE, 'network', { status: response.status });
  }

  const { code, msg, data } = payload;
  switch (code) {
    case ResponseCode.Success:
      if (options.showMsg && msg) feedback?.success(msg);
      return data as T;
    case ResponseCode.Silent:
      return undefined;
    case ResponseCode.Unauthorized: {
      const hadToken = storage.get(STORAGE_KEYS.token) !== null;
      storage.remove(STORAGE_KEYS.token);
      unauthorizedHandler?.({ hadToken });
      throw new ApiError(msg || 'Please log in.', 'unauthorized', { code, status: response.status });
    }
    default:
      throw new ApiError(msg || SYSTEM_ERROR_MESSAGE, 'business', { code, status: response.status });
  }
}

/**
 * Resolves with the envelope's `data`, or `undefined` for a silent (996) answer.
 * Rejects only with `ApiError`.
 */
export const apiClient = {
  request,
  get<T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) {
    return request<T>(path, { ...options, method: 'GET' });
  },
  post<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) {
    return request<T>(path, { ...options, method: 'POST', body });
  },
  put<T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) {
    return request<T>(path, { ...options, method: 'PUT', body });
  },
  delete<T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) {
    return request<T>(path, { ...options, method: 'DELETE' });
  },
};

/** What stores need of the client; tests pass a fake with the same shape. */
export type ApiTransport = Pick<typeof apiClient, 'get' | 'post'>;
