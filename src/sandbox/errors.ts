// The service's error envelope {"code": <int>, "msg": "<text>"} and the codes the sandbox answers with.

export const ERR = {
  invalidApiKey: { status: 400, code: 10072, msg: 'Api key info invalid' },
  apiKeyRequired: { status: 400, code: 400, msg: 'api key required' },
  badSignature: { status: 400, code: 700002, msg: 'Signature for this request is not valid.' },
  badTimestamp: { status: 400, code: 700003, msg: 'Timestamp for this request is outside of the recvWindow.' },
  recvWindowTooLarge: { status: 400, code: 700005, msg: 'recvWindow must less than 60000' },
  noPermission: { status: 403, code: 700007, msg: 'No permission to access the endpoint.' },
  invalidContentType: { status: 400, code: 700013, msg: 'Invalid content Type.' },
  subAccountMissing: { status: 400, code: 730600, msg: 'Sub-account Name cannot be null' },
  subAccountUnknown: { status: 400, code: 140001, msg: 'sub account does not exist' },
  subAccountForbidden: { status: 400, code: 140002, msg: 'sub account is forbidden' },
  subAccountNameRule: { status: 400, code: 730601, msg: 'Sub-account Name must be a combination of 8-32 letters and numbers' },
  noteMissing: { status: 400, code: 730700, msg: 'API KEY remarks cannot be null' },
  permissionsMissing: { status: 400, code: 730701, msg: 'API KEY permission cannot be null' },
  permissionUnknown: { status: 400, code: 730702, msg: 'API KEY permission does not exist' },
  tooManyIps: { status: 400, code: 730703, msg: 'The IP information is incorrect, and a maximum of 10 IPs are allowed to be bound only' },
  badIp: { status: 400, code: 730704, msg: 'The bound IP format is incorrect, please refill' },
  tooManyKeys: { status: 400, code: 730705, msg: 'At most 30 groups of Api Keys are allowed to be created only' },
  rateLimited: { status: 429, code: 429, msg: 'Too many requests; slow down' },
  ipBanned: { status: 418, code: 418, msg: 'This IP is banned for sending requests after being rate limited' },
  notFound: { status: 404, code: 404, msg: 'Not Found' },
  methodNotAllowed: { status: 405, code: 405, msg: 'Method Not Allowed' },
  bodyTooLarge: { status: 413, code: 413, msg: 'Request body too large' },
  badRequest: { status: 400, code: 400, msg: 'Bad Request: the request is not valid HTTP' },
  requestTimeout: { status: 408, code: 408, msg: 'Request Timeout: the request did not arrive in time' },
  headersTooLarge: { status: 431, code: 431, msg: 'Request Header Fields Too Large' },
} as const;

const MANDATORY_PARAM_CODE = 700004;

export interface ErrorSpec {
  status: number;
  code: number;
  msg: string;
}

/** Thrown by checks and handlers; the server turns it into the envelope. */
export class SandboxHttpError extends Error {
  readonly status: number;
  readonly code: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(spec: ErrorSpec, detail?: string, headers: Record<string, string> = {}) {
    super(detail === undefined ? spec.msg : `${spec.msg} ${detail}`);
    this.status = spec.status;
    this.code = spec.code;
    this.headers = headers;
  }
}

/** 700004: a mandatory parameter missing, empty or malformed. */
export function paramError(name: string): SandboxHttpError {
  return new SandboxHttpError({
    status: 400,
    code: MANDATORY_PARAM_CODE,
    msg: `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`,
  });
}

export function envelope(code: number, msg: string): string {
  return JSON.stringify({ code, msg });
}
