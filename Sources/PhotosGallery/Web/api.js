// The server's HTTP API as the gallery speaks it: JSON in and out,
// application/problem+json errors turned into ApiError, and the session's
// CSRF token on every request that changes something. The gallery uses
// only the public /v1 API, like any other client.

/** A failed request: the server's problem document, or a network failure (status 0). */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.title = problem.title || '';
    this.detail = problem.detail || '';
    this.code = problem.code ?? null;
    /** The whole problem document, its extension members included. */
    this.problem = problem;
  }
}

let csrfToken = null;
let sessionEnded = null;

/** Remembers the session's CSRF token, sent on every write from now on. */
export function useCsrfToken(token) {
  csrfToken = token;
}

/**
 * Calls `handler` when the server refuses the session (401) on any request,
 * as it does once the token behind the session is revoked or expires.
 */
export function whenSessionEnds(handler) {
  sessionEnded = handler;
}

/** The header a write needs, for requests made without `request` (uploads, for their progress events). */
export function csrfHeaders() {
  return csrfToken ? { 'X-CSRF-Token': csrfToken } : {};
}

/**
 * @typedef {{ body?: unknown, headers?: Record<string, string>, etag?: string | null, signal?: AbortSignal }} RequestOptions
 *   A request's JSON body, extra header fields, the ETag to revalidate and what aborts it; all optional.
 */

/**
 * One request. Resolves to { status, etag, data } (data null for 204 and 304);
 * rejects with ApiError for any other status outside 2xx.
 * @param {string} method
 * @param {string} path
 * @param {RequestOptions} options
 */
export async function request(method, path, { body, headers = {}, etag, signal } = {}) {
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const init = { method, headers: { ...headers }, credentials: 'same-origin', signal };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (etag) init.headers['If-None-Match'] = etag;
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) init.headers['X-CSRF-Token'] = csrfToken;
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError(0, { title: 'The server cannot be reached', detail: String(error.message || error) });
  }
  if (response.status === 401) sessionEnded?.();
  const result = { status: response.status, etag: response.headers.get('ETag'), data: null };
  if (response.status === 204 || response.status === 304) return result;
  const type = response.headers.get('Content-Type') || '';
  const data = type.includes('json') ? await response.json() : await response.text();
  if (!response.ok) throw new ApiError(response.status, typeof data === 'object' ? data : { detail: data });
  result.data = data;
  return result;
}

/**
 * GET a JSON resource; with `etag`, resolves to null when it has not changed.
 * @param {string} path
 * @param {RequestOptions} [options]
 */
export async function get(path, options = {}) {
  const result = await request('GET', path, options);
  return result.status === 304 ? null : result;
}

/** The data of a GET, for resources nobody revalidates. */
export async function getData(path) {
  return (await request('GET', path)).data;
}

/**
 * One change block: a list of PhotoKit change requests applied atomically
 * by the server. Resolves to { created, token }.
 */
export async function change(requests) {
  return (await request('POST', '/v1/changes', { body: { requests } })).data;
}

/** A query string from the entries of `params` that have a value. */
export function query(params) {
  const entries = Object.entries(params).filter(([, value]) => value !== undefined && value !== null && value !== '');
  return entries.length ? '?' + new URLSearchParams(entries).toString() : '';
}
