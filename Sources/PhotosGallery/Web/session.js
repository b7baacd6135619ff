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

/** Signs in with a token (an owner's, a client's or a share link's). */
export async function signIn(token) {
  const { data } = await request('POST', '/v1/session', { body: { token: token.trim() } });
  useCsrfToken(data.csrfToken);
  return describe(data);
}

/** Ends the session; the cookie is cleared by the server. */
export async function signOut() {
  await request('DELETE', '/v1/session');
  useCsrfToken(null);
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
