/**
 * The console's HTTP transport. Operators' sessions are not users' (tokens `op_…`, docs/decisions.md
 * "Operator back office"), so the console keeps its token under its own key and never touches the
 * user's: the shared `apiClient` reads and, on a 999, drops the user's token, which would log a
 * person out of the exchange whenever their console session ended. Same envelope, same `lang` header.
 */
import { ApiError, ResponseCode, SYSTEM_ERROR_MESSAGE, type ApiEnvelope } from '@/lib/api-client';
import { STORAGE_KEYS, storage } from '@/lib/storage';
import { DEFAULT_LANG } from '@/i18n/languages';

export const ADMIN_TOKEN_KEY = 'admin_token';
const BASE = '/api/admin/';

/** Console paths are relative to /api/admin/; a path from the root (`/api/news/categories`) is public. */
function url(path: string): string {
  return path.startsWith('/') ? path : BASE + path;
}

type Params = Record<string, string | number | boolean | null | undefined>;

/** What the console's stores need; tests pass a fake with the same shape. */
export interface AdminTransport {
  get<T>(path: string, params?: Params): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  /** A non-envelope answer (the audit trail's CSV) as a Blob. */
  blob(path: string, params?: Params): Promise<Blob>;
}

export const adminToken = {
  get(): string | null {
    try {
      return globalThis.localStorage?.getItem(ADMIN_TOKEN_KEY) ?? null;
    } catch {
      return null;
    }
  },
  set(token: string | null): void {
    try {
      if (token) globalThis.localStorage?.setItem(ADMIN_TOKEN_KEY, token);
      else globalThis.localStorage?.removeItem(ADMIN_TOKEN_KEY);
    } catch {
      /* storage blocked: the session lasts as long as the page */
    }
  },
};

export function queryString(params?: Params): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null && value !== '') query.append(key, String(value));
  }
  const qs = query.toString();
  return qs ? `?${qs}` : '';
}

function headers(json: boolean): Headers {
  const h = new Headers({ Accept: json ? 'application/json' : '*/*' });
  h.set('lang', storage.get(STORAGE_KEYS.lang) || DEFAULT_LANG);
  const token = adminToken.get();
  if (token) h.set('Authorization', token);
  return h;
}

/** A fetch-based transport; `onUnauthorized` runs after a 999 (the console token is dropped first). */
export function createAdminClient(onUnauthorized: () => void): AdminTransport {
  async function call<T>(method: 'GET' | 'POST', path: string, params?: Params, body?: unknown): Promise<T> {
    const h = headers(true);
    if (body !== undefined) h.set('Content-Type', 'application/json');
    let payload: unknown;
    let status: number | null = null;
    try {
      const response = await fetch(url(path) + queryString(params), {
        method,
        headers: h,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      status = response.status;
      payload = await response.json();
    } catch (cause) {
      throw new ApiError(SYSTEM_ERROR_MESSAGE, 'network', { cause, status });
    }
    const envelope = payload as ApiEnvelope<T>;
    if (typeof envelope?.code !== 'number') throw new ApiError(SYSTEM_ERROR_MESSAGE, 'network', { status });
    if (envelope.code === ResponseCode.Success) return envelope.data;
    if (envelope.code === ResponseCode.Unauthorized) {
      adminToken.set(null);
      onUnauthorized();
      throw new ApiError(envelope.msg || 'Please log in.', 'unauthorized', { code: envelope.code, status });
    }
    throw new ApiError(envelope.msg || SYSTEM_ERROR_MESSAGE, 'business', { code: envelope.code, status });
  }

  return {
    get: (path, params) => call('GET', path, params),
    post: (path, body) => call('POST', path, undefined, body ?? {}),
    async blob(path, params) {
      const response = await fetch(url(path) + queryString(params), { headers: headers(false) });
      const type = response.headers.get('Content-Type') ?? '';
      if (type.includes('application/json')) {
        const envelope = (await response.json()) as ApiEnvelope<unknown>;
        if (envelope.code === ResponseCode.Unauthorized) {
          adminToken.set(null);
          onUnauthorized();
        }
        throw new ApiError(envelope.msg || SYSTEM_ERROR_MESSAGE, 'business', { code: envelope.code });
      }
      if (!response.ok) throw new ApiError(SYSTEM_ERROR_MESSAGE, 'network', { status: response.status });
      return response.blob();
    },
  };
}
