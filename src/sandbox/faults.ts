// Injected faults: a queue (one per incoming request, in order) and random rates from a seeded stream.
import { STATUS_CODES } from 'node:http';
import { envelope } from './errors';
import { createRng } from './prng';
import { rawJsonReply, type Reply } from './reply';
import type { SandboxFault, SandboxFaultRates } from './types';

interface FaultPlan {
  /** The fault for the next incoming request (queued first, then drawn from the rates) and extra latency. */
  next(): { fault?: SandboxFault; latencyMs: number };
  queue(faults: readonly SandboxFault[]): void;
  setRates(rates: SandboxFaultRates): void;
}

export function createFaultPlan(seed: number, initialRates: SandboxFaultRates = {}): FaultPlan {
  const queued: SandboxFault[] = [];
  const rng = createRng(seed, 3);
  let rates = { ...initialRates };
  return {
    next() {
      const latencyMs = rates.latencyMs ?? 0;
      const fromQueue = queued.shift();
      if (fromQueue) return { fault: fromQueue, latencyMs };
      const draw = rng.next();
      let edge = rates.resetRate ?? 0;
      if (draw < edge) return { fault: { kind: 'reset' }, latencyMs };
      edge += rates.errorRate ?? 0;
      if (draw < edge) return { fault: { kind: 'status', status: 503 }, latencyMs };
      edge += rates.malformedRate ?? 0;
      if (draw < edge) return { fault: { kind: 'malformed' }, latencyMs };
      return { latencyMs };
    },
    queue(faults) {
      queued.push(...faults);
    },
    setRates(next) {
      rates = { ...next };
    },
  };
}

/** The answer of a fault that replaces handling; undefined for kinds that handle the request. */
export function faultReply(fault: SandboxFault, path: string): Reply | undefined {
  switch (fault.kind) {
    case 'status':
      return rawJsonReply(fault.status, envelope(fault.code ?? fault.status, fault.msg ?? STATUS_CODES[fault.status] ?? 'Error'));
    case 'html':
      return { status: fault.status, headers: { 'Content-Type': 'text/html; charset=utf-8' }, body: htmlPage(fault.status) };
    case 'envelope':
      return rawJsonReply(fault.status, JSON.stringify({ code: '0', message: '', data: null }));
    case 'malformed':
      return rawJsonReply(200, truncatedBody(path));
    case 'wrong-shape':
      return rawJsonReply(200, JSON.stringify({ success: true, data: { items: [], total: 0 } }));
    case 'rate-limit':
      return rawJsonReply(429, envelope(429, 'Too many requests; slow down'), { 'Retry-After': String(fault.retryAfterSec) });
    case 'reset':
    case 'reset-after-handling':
    case 'delay':
    case 'hold':
    case 'reordered':
      return undefined;
  }
}

function htmlPage(status: number): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

/** The start of a real-looking answer, cut off mid-record. */
function truncatedBody(path: string): string {
  if (path.endsWith('/universalTransfer')) return '[{"tranId":"664258209556066304","fromAccount":"mast';
  return '{"subAccount":[{"note":"trading bot","apiKey":"mx0v';
}
