// A JSON request for the endpoints client.ts has no method for yet (import,
// templates). Same conventions as client.ts: CSRF header on unsafe methods, a
// 401 sends the user to the login page, errors become ApiError with a readable
// message. It also keeps the `field` and `line` some 4xx answers carry.
import { API, ApiError, loginUrl } from './client';
import type { Diag } from './types';

/** An API error whose answer named the offending field and/or line (POST /import's 422). */
export class ApiFieldError extends ApiError {
  field: string | null;
  line: number | null;
  constructor(status: number, message: string, field: string | null, line: number | null, diagnostics: Diag[] = []) {
    super(status, message, diagnostics);
    this.field = field;
    this.line = line;
  }
}

function cookie(name: string): string {
  const found = document.cookie.split('; ').find((c) => c.startsWith(name + '='));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : '';
}

function describeStatus(status: number): string {
  if (status === 404) return 'Not found: it may have been deleted.';
  if (status === 403) return 'You do not have access to this.';
  if (status >= 500) return `The server failed (HTTP ${status}). Try again in a moment.`;
  return `The request failed (HTTP ${status}).`;
}

/** The readable message of an error answer's body (`detail` as text or as a list of `{msg}`). */
export function errorMessage(status: number, data: unknown): string {
  const obj = (typeof data === 'object' && data !== null ? data : {}) as { detail?: unknown };
  if (typeof obj.detail === 'string' && obj.detail.trim()) return obj.detail;
  if (Array.isArray(obj.detail) && obj.detail.length) {
    return obj.detail
      .map((d: unknown) => {
        if (typeof d === 'object' && d !== null && 'msg' in d) {
          const { msg, loc } = d as { msg: unknown; loc?: unknown };
          const where = Array.isArray(loc) ? loc.filter((p) => p !== 'body').join('.') : '';
          return where ? `${where}: ${String(msg)}` : String(msg);
        }
        return String(d);
      })
      .join('; ');
  }
  return describeStatus(status);
}

export async function requestJson<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') headers['X-CSRFToken'] = cookie('csrftoken');
  let res: Response;
  try {
    res = await fetch(API + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'Cannot reach the server. Check that it is running, then try again.');
  }
  if (res.status === 401) {
    window.location.assign(loginUrl());
    throw new ApiError(401, 'Your session has ended. Please sign in again.');
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const obj = (typeof data === 'object' && data !== null ? data : {}) as { field?: unknown; line?: unknown; diagnostics?: unknown };
    const diagnostics = Array.isArray(obj.diagnostics) ? (obj.diagnostics as Diag[]) : [];
    const field = typeof obj.field === 'string' && obj.field ? obj.field : null;
    const line = typeof obj.line === 'number' ? obj.line : null;
    const message = errorMessage(res.status, data);
    if (field !== null || line !== null) throw new ApiFieldError(res.status, message, field, line, diagnostics);
    throw new ApiError(res.status, message, diagnostics);
  }
  return data as T;
}
