// A fake server for the tests of what calls the API (client.ts): it answers the client's requests and keeps them.
//
// Import it before anything that imports client.ts. The client (openapi-fetch) builds each request with the
// `Request` it found when it was made; a page resolves '/api/v1/...' against its own address, but the tests run
// in Node, which has no page. So this module gives `Request` one first: http://localhost.
import { vi } from 'vitest';

/** The credentials mode each request was made with (fetch's default is same-origin too: this sees the client ask). */
const askedCredentials = new WeakMap<Request, RequestCredentials | undefined>();

class PageRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, 'http://localhost') : input, init);
    askedCredentials.set(this, init?.credentials);
  }
}
globalThis.Request = PageRequest;

/** A request the client sent, as the server saw it. */
export interface Call {
  method: string;
  /** The path and query, as sent: `/api/v1/runs?workspace=4`. */
  url: string;
  headers: Headers;
  /** The credentials mode the client asked for (undefined: it said none). */
  credentials: RequestCredentials | undefined;
  /** The JSON body parsed, or a form's fields (their last value each); undefined without a body. */
  body: unknown;
  /** A multipart body as the server gets it. */
  form: FormData | null;
}

async function seen(request: Request): Promise<Call> {
  const url = new URL(request.url);
  const base = { method: request.method, url: url.pathname + url.search, headers: request.headers, credentials: askedCredentials.get(request) };
  if (request.headers.get('Content-Type')?.startsWith('multipart/form-data')) {
    const form = await request.formData();
    return { ...base, body: Object.fromEntries(form), form };
  }
  const text = request.body ? await request.text() : '';
  return { ...base, body: text ? JSON.parse(text) : undefined, form: null };
}

/** Answers every request with `answer` (a Response, or what fetch would throw) and keeps them, in order. */
export function fakeServer(answer: (call: Call) => Response | Promise<Response>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (request: Request) => {
    const call = await seen(request);
    calls.push(call);
    return answer(call);
  });
  return calls;
}

/** A JSON answer. */
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers });

/** What a page gives the client: the CSRF cookie and an address to come back to after signing in. */
export function signedIn(location: { pathname?: string; search?: string; assign?: (url: string) => void } = {}): void {
  vi.stubGlobal('document', { cookie: 'other=1; csrftoken=abc' });
  vi.stubGlobal('window', { location: { pathname: '/', search: '', assign: () => undefined, ...location } });
}
