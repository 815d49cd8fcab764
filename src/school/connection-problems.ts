/**
 * Failures of a request that no retry can mend, told for what they are: an https:// address
 * whose server speaks plain http, a certificate Node does not trust, and a base URL without
 * the API's path (the school answers 404 to everything under it). Pure: the transport asks.
 */
import type { ErrorArgs } from '../diagnostics/error-codes/index.js';

/** The certificate failures Node reports by code, as the reason said to the user. */
const CERTIFICATE_PROBLEMS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'it is signed by a self-signed authority',
  CERT_HAS_EXPIRED: 'it has expired',
  CERT_NOT_YET_VALID: 'it is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'it is for another host name',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'it is signed by an authority Node does not know',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'it is signed by an authority Node does not know',
  UNABLE_TO_GET_ISSUER_CERT: 'it is signed by an authority Node does not know',
  CERT_UNTRUSTED: 'it is not trusted for this use',
  CERT_REVOKED: 'it was revoked',
};

export type ConnectionProblem =
  | { code: 'school/not-tls'; args: ErrorArgs<'school/not-tls'> }
  | { code: 'school/untrusted-certificate'; args: ErrorArgs<'school/untrusted-certificate'> };

/** What a request error of an https:// request means, when retrying cannot help; else null. */
export function tlsProblem(error: unknown, url: string, endpoint: string): ConnectionProblem | null {
  const { code = '', message = '' } = error as { code?: string; message?: string };
  const host = new URL(url).host;
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || (code === 'EPROTO' && /wrong version number|http request/i.test(message))) {
    return { code: 'school/not-tls', args: { endpoint, host } };
  }
  const problem = CERTIFICATE_PROBLEMS[code];
  return problem === undefined ? null : { code: 'school/untrusted-certificate', args: { endpoint, host, problem, nodeCode: code } };
}

/**
 * For a 404: the base URL's path does not end in `/api/v1`, where every school serves its API,
 * with the address it most likely meant; null when it does.
 */
export function missingApiPath(baseUrl: string): string | null {
  const path = new URL(baseUrl).pathname.replace(/\/+$/, '');
  if (path.endsWith('/api/v1')) return null;
  return baseUrl.replace(/\/+$/, '') + (path.endsWith('/api') ? '/v1' : '/api/v1');
}
