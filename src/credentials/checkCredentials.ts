// Whether a base URL, API key and secret work, before anything is stored: one signed request, the cheapest
// there is (one transfer of the master account), sent once. Used by the console's add-profile and
// session-credentials forms and by `profile add` on the command line, so both say the same thing.
import type { BrokerApi, ClientConfig } from '../api/contract';
import { BrokerError, formatDuration, oneLine } from '../api/errors';
import { NO_PERMISSION, SIGNATURE_REFUSED_CODES, UNKNOWN_API_KEY } from '../api/serviceCodes';
import { createBrokerApi } from '../api/operations';

/** Which input a failed check points at (the console puts the message under that field). */
type CheckedField = 'baseUrl' | 'apiKey' | 'secretKey';

/**
 * Why a check failed: the service does not know the key, it rejected the signature (the secret, or the
 * header/signing option), it could not be reached (or did not answer in time), its answer proved neither
 * (a rate limit, a ban, a firewall, the clock), or something else.
 */
type CheckFailureReason = 'unknown-key' | 'bad-signature' | 'unreachable' | 'unverified' | 'failed';

type CredentialCheck = { ok: true; notice?: string } | { ok: false; reason: CheckFailureReason; message: string; field?: CheckedField };

/** What the check's request is called in what it says ("the connection check failed (HTTP 403) …"). */
const CHECK_OPERATION = 'the connection check';

/** The default deadline of a check, ms (one try: the operator is waiting for an answer). */
export const CHECK_TIMEOUT_MS = 8000;

interface CheckOptions {
  timeoutMs?: number;
  /** The client factory (tests); default createBrokerApi. */
  createApi?: (config: ClientConfig) => BrokerApi;
}

function causeCode(error: BrokerError): string {
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return oneLine(typeof code === 'string' ? code : cause.message, 200);
  }
  return 'no connection';
}

/**
 * Service codes given only once the key and the signature passed: a refusal for a reason of the request
 * itself (no permission for the endpoint, a sub-account, an account that is not a broker). A parameter's
 * 700004 or 700008 is not one: the service may check parameters before the signature (a missing signature is
 * a 700004), as the client's own signing-rule logic assumes.
 */
const AFTER_AUTHENTICATION = new Set([700007, 140001, 140002, 730603]);

function provesCredentials(code: number): boolean {
  return AFTER_AUTHENTICATION.has(code) || (code >= 730600 && code < 730800);
}

/**
 * Sends one signed request with these credentials. A pass is an answer that proves the key and the
 * signature: a page of transfers, or a refusal the service gives only after both passed (no permission to
 * read transfers, a sub-account, an account that is not a broker), which is then said as a notice. Any other
 * answer (a rate limit, a ban, a firewall, the clock, an IP not linked, a parameter refused) proves neither:
 * the check fails and nothing is stored.
 */
export async function checkCredentials(config: ClientConfig, options: CheckOptions = {}): Promise<CredentialCheck> {
  const create = options.createApi ?? createBrokerApi;
  const api = create({ ...config, maxTries: 1, timeoutMs: options.timeoutMs ?? config.timeoutMs ?? CHECK_TIMEOUT_MS });
  try {
    await api.listUniversalTransfers({ fromAccountType: 'SPOT', toAccountType: 'FUTURES', limit: 1 });
    return { ok: true };
  } catch (caught) {
    if (!(caught instanceof BrokerError)) return { ok: false, reason: 'failed', message: caught instanceof Error ? caught.message : String(caught) };
    // Said as the check it is: the operator asked to add credentials, not to list transfers.
    const error = caught.as(CHECK_OPERATION);
    if (error.kind === 'service') {
      // A code may come as a string ("730603").
      const code = Number(error.code);
      if (code === UNKNOWN_API_KEY) return { ok: false, reason: 'unknown-key', field: 'apiKey', message: 'the service does not know this API key' };
      if (SIGNATURE_REFUSED_CODES.has(code)) {
        return {
          ok: false,
          reason: 'bad-signature',
          field: 'secretKey',
          message: 'the service rejected the signature: check the secret (and the API-key header)',
        };
      }
      if (code === NO_PERMISSION) return { ok: true, notice: 'connected, but this key may not read transfers (no SPOT_TRANSFER_READ)' };
      if (provesCredentials(code)) return { ok: true, notice: `connected; the check answered: ${error.toLine()}` };
      return { ok: false, reason: 'unverified', message: `the credentials could not be checked: ${error.toLine()}` };
    }
    if ((error.kind === 'network' || error.kind === 'timeout') && error.stage === 'connect' && error.connectProblem !== undefined) {
      // A certificate, a proxy's refusal, a handshake: said in words, with what to do.
      const within = error.kind === 'timeout' ? ` within ${formatDuration(error.timeoutMs ?? options.timeoutMs ?? CHECK_TIMEOUT_MS)}` : '';
      return {
        ok: false,
        reason: 'unreachable',
        field: 'baseUrl',
        message: `could not reach ${config.baseUrl}: ${error.connectProblem}${within}${error.hint ? ` — ${error.hint}` : ''}`,
      };
    }
    if (error.kind === 'network' || error.kind === 'timeout') {
      const what =
        error.kind === 'timeout'
          ? `no answer within ${formatDuration(error.timeoutMs ?? options.timeoutMs ?? CHECK_TIMEOUT_MS)}`
          : error.stage === 'connect'
            ? causeCode(error)
            : `the connection closed before an answer came, ${causeCode(error)}`;
      // Through a proxy the connection refused or timed out may be the proxy's: said so, and the proxy is what to check.
      const through = error.via !== undefined && error.stage === 'connect' ? ` through the proxy ${error.via}` : '';
      const check = through === '' ? 'check the base URL and the network' : 'check the proxy (--proxy, the profile, HTTPS_PROXY), then the base URL';
      return { ok: false, reason: 'unreachable', field: 'baseUrl', message: `could not reach ${config.baseUrl}${through} (${what}): ${check}` };
    }
    return { ok: false, reason: 'failed', message: error.toLine() };
  } finally {
    await api.close().catch(() => undefined);
  }
}
