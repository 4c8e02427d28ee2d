// The console's own multi-line messages (the keychain's) are laid out on lines of their own, never shown with ␊.
import { afterEach, describe, expect, test } from 'vitest';
import { problem } from '../../src/credentials/keychain';
import type { TargetSwitcher } from '../../src/ui/targets';
import { startConsole, type TestConsole } from './harness';

let c: TestConsole;
afterEach(async () => c?.cleanup());

function keychainSwitcher(message: string): TargetSwitcher {
  const profile = { name: 'prod', baseUrl: 'https://api.example.com', isDefault: true };
  return {
    current: () => undefined,
    subscribe: () => () => undefined,
    startupProblem: () => ({ kind: 'keychain', message, profile }),
    profiles: async () => [profile],
    openDemo: async () => undefined,
    openProfile: async () => ({ ok: false, message }),
    addProfile: async () => ({ ok: false, message }),
    useForSession: async () => ({ ok: false, message }),
  };
}

describe("the console's own messages", () => {
  test('the keychain message on the welcome screen is split into lines, with no ␊', async () => {
    const { message } = problem('locked');
    expect(message).toContain('\n');
    c = await startConsole({ columns: 120, rows: 30, switcher: keychainSwitcher(message), initialRoute: { screen: 'welcome' } });
    await c.waitForText('the keychain is locked');
    const frame = c.frame();
    expect(frame).not.toContain('␊');
    const lines = frame.split('\n');
    // Each line of the message starts a line of the screen.
    expect(lines.some((l) => l.trimEnd() === 'the keychain is locked')).toBe(true);
    expect(lines.some((l) => l.startsWith('unlock the login keyring'))).toBe(true);
  });

  test.each([100, 80])('at %i columns the no-D-Bus message is whole on the welcome screen: its way out (environment credentials) last', async (columns) => {
    const { message } = problem('no-dbus', 'Could not connect: No such file or directory');
    c = await startConsole({ columns, rows: 24, switcher: keychainSwitcher(message), initialRoute: { screen: 'welcome' } });
    await c.waitForText('the keychain cannot be reached');
    expect(c.frame().replace(/\s+/g, ' ')).toContain(message.replace(/\s+/g, ' '));
    await c.cleanup();
  });

  test('at 40x12 the message still wraps without ␊', async () => {
    c = await startConsole({ columns: 40, rows: 12, switcher: keychainSwitcher(problem('no-secret-service').message), initialRoute: { screen: 'welcome' } });
    await c.waitForText('the keychain cannot be');
    expect(c.frame()).not.toContain('␊');
  });
});
