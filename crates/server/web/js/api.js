// The HTTP API: JSON in, JSON out; every failure becomes an ApiError with the server's code
// and message (`{"error":{"code","message"}}`), so that the page can show it.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch (e) {
    throw new ApiError(0, 'network', `the server cannot be reached (${e.message})`);
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = text; }
  if (!response.ok) {
    const err = data && data.error;
    throw new ApiError(response.status, err ? err.code : 'http_' + response.status,
      err ? err.message : `the server answered ${response.status}`);
  }
  return data;
}

export const get = path => api('GET', path);
export const post = (path, body = {}) => api('POST', path, body);

/** A fresh random string (hex), for nonces and client seeds. */
export function randomHex(bytes = 16) {
  const a = new Uint8Array(bytes);
  crypto.getRandomValues(a);
  return [...a].map(b => b.toString(16).padStart(2, '0')).join('');
}
