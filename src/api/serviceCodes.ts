// The service's error codes an operator meets, each with what it means and what to check: one table for the
// console and the commands alike. Where each meaning comes from is in docs/service-codes.md.
import { shellWord } from '../terminal/shell';
import { NO_IP_LIFETIME_DAYS } from './types';

/**
 * "Timestamp outside recvWindow": the request was refused before anything was done, so the client re-measures the
 * clock from that answer and sends it once more, a GET or a POST.
 */
export const TIMESTAMP_OUTSIDE_RECV_WINDOW = 700003;
/**
 * "Signature not valid" (700002) and the error table's "Signature verification failed" (602): a refusal before
 * anything is done, so a create may be resent under the other rule.
 */
export const SIGNATURE_REFUSED_CODES: ReadonlySet<unknown> = new Set([700002, 602]);
/** "Invalid API key": the service does not know the key. */
export const UNKNOWN_API_KEY = 10072;
/** "No permission for the endpoint": the key lacks the permission for the operation. */
export const NO_PERMISSION = 700007;

interface ServiceCode {
  /** The meaning in a few words (the service's own message may be terse, or another language). */
  meaning: string;
  /** What to check, and where: said after the service's line. */
  hint: string;
}

export const SERVICE_CODES: Readonly<Record<string, ServiceCode>> = {
  '700001': { meaning: 'API key format invalid', hint: 'the API key is not one the service can read: check it was copied whole (profile or BROKER_API_KEY)' },
  '700002': { meaning: 'signature not valid', hint: 'check the API secret (and the profile signing option); an expired API key gets this answer too' },
  '602': { meaning: 'signature verification failed', hint: 'check the API secret (and the profile signing option)' },
  '700003': { meaning: 'timestamp outside recvWindow', hint: 'check the computer clock, or raise --recv-window' },
  '700004': { meaning: 'mandatory parameter missing or malformed', hint: 'a parameter was missing or not in the form the service takes: the message names it' },
  '700005': { meaning: 'recvWindow too large', hint: 'give a recvWindow under 60000 ms (--recv-window, or the profile)' },
  '700006': {
    meaning: 'IP not in the master key whitelist',
    hint: "this computer's public IP is not linked to the master API key: add it to the key's IP list on the exchange's API management page",
  },
  '700007': { meaning: 'no permission for the endpoint', hint: 'the master key lacks the permission for this operation' },
  '700008': { meaning: 'illegal characters in a parameter', hint: 'a value holds characters the service refuses: check the sub-account name, note and IPs' },
  '700013': {
    meaning: 'invalid Content-Type',
    hint: 'the service takes a POST only as JSON (Content-Type: application/json): a proxy on the way may have changed it',
  },
  '10072': { meaning: 'invalid API key', hint: 'check the API key' },
  '402': {
    meaning: 'API key expired',
    hint: `the master API key has expired (a key with no linked IP lasts ${NO_IP_LIFETIME_DAYS} days): make a new one on the exchange and add the profile again`,
  },
  '140001': { meaning: 'sub-account does not exist', hint: 'check the sub-account name (exact spelling, case included)' },
  '140002': { meaning: 'sub-account forbidden', hint: "the sub-account is frozen or disabled: check its status in the broker's sub-account list" },
  '730600': { meaning: 'sub-account name missing', hint: 'give the sub-account name' },
  '730601': { meaning: 'sub-account name rule', hint: 'a sub-account name is 8 to 32 letters and digits' },
  '730603': { meaning: 'account is not a broker', hint: "the master key's account is not a broker account: use the broker master account's API key" },
  '730700': { meaning: 'API key note missing', hint: 'give a note for the key' },
  '730701': { meaning: 'API key permissions missing', hint: 'choose at least one permission' },
  '730702': { meaning: 'API key permission does not exist', hint: 'a permission is not one the service knows: check its spelling' },
  '730703': { meaning: 'linked IPs incorrect or too many', hint: 'check the linked IPs: the service found them incorrect (a broker key takes at most 4)' },
  '730704': {
    meaning: 'linked IP format incorrect',
    hint: 'a linked IP is not in a form the service takes: give whole addresses (its examples are IPv4)',
  },
  '730705': {
    meaning: 'key limit reached',
    hint: 'the sub-account has 30 keys, the most it can have: delete one first (the broker API can; this console does not)',
  },
  '730706': { meaning: 'API key information does not exist', hint: 'the key is not (or no longer) one of this sub-account: refresh the key list' },
  '500': { meaning: 'internal error', hint: 'the service failed on its side: try again later' },
  '503': { meaning: 'service not available', hint: 'the service is busy or down: try again later' },
  '504': { meaning: 'gateway time-out', hint: "the service's back end did not answer in time: try again" },
  '20002': {
    meaning: 'internal system error',
    hint: "the service failed on its side: try again later; if it stays, contact the exchange's support",
  },
  '-1006': {
    meaning: "unexpected answer from the service's back end",
    hint: 'the service could not tell whether it was done: try again',
  },
  '-1007': {
    meaning: "timeout waiting for the service's back end",
    hint: 'the service could not tell whether it was done: try again',
  },
};

/** The hint for a code the table knows. */
export function hintFor(code: number | string | undefined): string | undefined {
  return code === undefined ? undefined : SERVICE_CODES[String(code).trim()]?.hint;
}

/**
 * Codes that say the service's back end may have done the request: a create answered so is an unknown outcome.
 * 500, 503, 504 and 20002 are the service's own codes for a failure on its side, given in an envelope at any status.
 */
export const OUTCOME_UNKNOWN_CODES: ReadonlySet<string> = new Set(['-1006', '-1007', '500', '503', '504', '20002']);

/**
 * Whether an answer to a create leaves its outcome unknown: every 5xx (the service's docs: the execution status
 * is unknown and could have been a success), a 408, or a code that says the back end did not answer.
 */
export function createOutcomeUnknown(status: number, code: number | string | undefined): boolean {
  return status >= 500 || status === 408 || (code !== undefined && OUTCOME_UNKNOWN_CODES.has(String(code).trim()));
}

/** Codes that refuse one sub-account (unknown, forbidden) rather than the request as a whole. */
export const SUB_ACCOUNT_REFUSALS: ReadonlySet<string> = new Set(['140001', '140002']);

/**
 * What to do after a create whose outcome is unknown: the command's last line, and the console's once it closes.
 * `listCommand` lists keys on the service the create went to, with its credentials (the demo has none: its
 * sandbox ends with the run); the name goes into a command to copy: one a service listed with shell syntax in it
 * is quoted.
 */
export function checkBeforeCreatingAgain(subAccount: string, listCommand: string | undefined): string {
  if (listCommand === undefined) return "the key may have been made in the demo's sandbox, which ended with this run: nothing is left to check";
  return `the key may exist: check with \`${listCommand} --sub ${shellWord(subAccount)}\` before creating it again`;
}

/** `broker-console keys list` with the options that reach a service with the credentials used (already quoted). */
export function keyListCommand(options: string): string {
  return `broker-console keys list${options === '' ? '' : ` ${options}`}`;
}
