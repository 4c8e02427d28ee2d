// Whether a real Secret Service can be used here: a throwaway entry is written, read back and removed.
// Keychain suites run only when it can; otherwise they are skipped LOUDLY with the reason (CI installs what they need, so there they always run).
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { KeychainError, openKeychain } from '../../src/credentials/keychain';

export type KeychainAvailability = { ok: true } | { ok: false; reason: string };

let probed: Promise<KeychainAvailability> | undefined;

export function probeKeychain(): Promise<KeychainAvailability> {
  probed ??= (async (): Promise<KeychainAvailability> => {
    const name = `probe-${randomBytes(6).toString('hex')}`;
    try {
      const keychain = await openKeychain();
      await keychain.set(name, { apiKey: 'probe-key', secretKey: 'probe-secret' });
      const back = await keychain.get(name);
      await keychain.remove(name);
      if (back?.secretKey !== 'probe-secret') return { ok: false, reason: 'a throwaway entry did not read back (locked keyring?)' };
      return { ok: true };
    } catch (error) {
      const text = error instanceof KeychainError ? `${error.problem.kind}: ${error.message.split('\n')[0]}` : String(error);
      return { ok: false, reason: text };
    }
  })();
  return probed;
}

/** A profile name no other test (or run) uses. */
export function uniqueProfile(prefix = 'test'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

/** What a run of the binary needs to reach the same Secret Service as this test process. */
export function busEnv(): Record<string, string> {
  const env: Record<string, string> = { HOME: process.env.HOME ?? tmpdir() };
  for (const name of ['DBUS_SESSION_BUS_ADDRESS', 'XDG_RUNTIME_DIR', 'GNOME_KEYRING_CONTROL']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}
