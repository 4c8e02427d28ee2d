// The console's side of a secret that does not reach the operator: a copy that fails is said on screen, and a
// secret that is not readable text is never shown as if it were the service's.
import { describe, expect, test } from 'vitest';
import type { CreatedKey } from '../../src/api/types';
import { secretUnreadableReason } from '../../src/ui/hooks/useCreateKey';
import { consoleFor } from './harness';

const created: CreatedKey = {
  subAccount: 'desk1',
  note: 'n',
  apiKey: 'mx0vabcdefabcdefa1b2',
  secretKey: 'ab\uFFFDcd',
  permissions: ['SPOT_ACCOUNT_READ'],
  ips: [],
  createdAt: 1_700_000_000_000,
};

describe('the secret screen when delivery fails', () => {
  test('a copy that fails says so, with its reason, and where the secret still is', async ({ onTestFinished }) => {
    const failure = Object.assign(new Error('clipboard write failed'), { code: 'EIO' });
    const c = await consoleFor(onTestFinished, {
      copyFails: failure,
      initialRoute: { screen: 'secret', created: { ...created, secretKey: 'abcdef0123456789' } },
    });
    await c.waitForText('Store the secret key now');
    await c.press('s');
    await c.waitForText('The secret key could not be copied (EIO)');
    expect(c.copies).toEqual([]);
  });

  test('a key or secret holding a line break or an escape is not copied: pasted into a shell it could run a command', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, {
      columns: 100,
      initialRoute: { screen: 'secret', created: { ...created, apiKey: 'mx0vabcdef\r\necho PWNED\r\n', secretKey: 'abc\u001b]52;c;ZXZpbA==\u0007def' } },
    });
    await c.waitForText('not readable text');
    await c.press('c');
    await c.waitForText('✗ The API key was not copied: it holds U+000D, which a terminal cannot show (shown as a mark)');
    await c.press('s');
    await c.waitForText('✗ The secret key was not copied: it holds U+001B, which a terminal cannot show (shown as a mark)');
    expect(c.copies).toEqual([]);
  });

  test('a secret that was not valid UTF-8: the screen says what is shown is not it, and to delete the key', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 100, initialRoute: { screen: 'secret', created: { ...created, secretUnreadable: true } } });
    await c.waitForText('not readable text');
    const flat = c.frame().replace(/\n/g, ' ');
    expect(flat).toContain("what is shown is not it. Delete this key in the service's web console.");
    expect(flat).not.toContain('Store the secret key now');
  });
});

describe('what the trail is told of a secret the screen cannot show', () => {
  test('the same reason the screen has: not UTF-8, or characters a terminal cannot show; none for a plain secret', () => {
    expect(secretUnreadableReason({ ...created, secretUnreadable: true })).toBe('is not valid UTF-8 text');
    expect(secretUnreadableReason({ ...created, secretKey: '\u001b]52;c;SECRET\u0007line' })).toBe('holds characters a terminal cannot show');
    expect(secretUnreadableReason({ ...created, secretKey: 'abcdef0123456789' })).toBeUndefined();
    // Length is not a reason: a secret too long for the window is said so there, and s still copies it.
    expect(secretUnreadableReason({ ...created, secretKey: 'a'.repeat(4050) })).toBeUndefined();
  });
});
