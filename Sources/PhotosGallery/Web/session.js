// The browser's session: a bearer token exchanged for an HttpOnly cookie
// (POST /v1/session), read back after a reload (GET /v1/session) for its
// CSRF token, and ended on sign-out.
import { request, useCsrfToken, ApiError } from './api.js';

/** The current session, or null when this browser is not signed in. */
export async function currentSession() {
  try {
    const { data } = await request('GET', '/v1/session');
    useCsrfToken(data.csrfToken);
    return describe(data);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 404)) return null;
    throw error;
  }
}

/**
 * Signs in with a token (an owner's, a client's or a share link's), and the
 * share link's password when it has one. A link that needs its password
 * is refused with an ApiError whose problem says `password: 'required'`.
 */
export async function signIn(token, password) {
  const body = password === undefined ? { token: token.trim() } : { token: token.trim(), password };
  const { data } = await request('POST', '/v1/session', { body });
  useCsrfToken(data.csrfToken);
  return describe(data);
}

/** Ends the session; the cookie is cleared by the server. */
export async function signOut() {
  await request('DELETE', '/v1/session');
  useCsrfToken(null);
}

/** Whether a refused sign-in wants the share link's password. */
export function needsPassword(error) {
  return error instanceof ApiError && error.status === 401 && error.problem?.password === 'required';
}

function describe(data) {
  return {
    client: data.client ?? null,
    readOnly: data.readOnly,
    label: data.label || '',
    isOwner: data.client == null,
    isShare: (data.client || '').startsWith('share.'),
  };
}
