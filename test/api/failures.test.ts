// A try that got no readable answer: whether the request may have reached the service is decided by whether a
// byte of it was written, not by the error's code.
import { describe, expect, it } from 'vitest';
import { classifyFailure } from '../../src/api/failures';

const where = { origin: 'http://127.0.0.1:9', via: undefined, timeoutMs: 10_000 };
const errorWith = (code: string) => Object.assign(new Error(`connect ${code}`), { code });

describe('classifyFailure', () => {
  for (const code of ['EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ECONNREFUSED']) {
    it(`${code} before a byte was written: a create that did not happen`, () => {
      const { error } = classifyFailure(errorWith(code), { operation: 'create key', method: 'POST', nothingDone: 'no key was created' }, where, {
        timedOut: false,
        status: undefined,
        written: false,
      });
      expect(error.kind).toBe('network');
      expect(error.stage).toBe('connect');
      expect(error.toLine()).toContain('no key was created');
    });

    it(`${code} after the create was written (an ICMP unreachable on a kept-alive connection): outcome unknown`, () => {
      const { error, retryable } = classifyFailure(errorWith(code), { operation: 'create key', method: 'POST', nothingDone: 'no key was created' }, where, {
        timedOut: false,
        status: undefined,
        written: true,
      });
      expect(error.kind).toBe('outcome-unknown');
      expect(error.toLine()).not.toContain('no key was created');
      expect(retryable).toBe(false);
    });
  }
});
