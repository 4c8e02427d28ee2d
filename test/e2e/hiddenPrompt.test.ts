// `profile add` on a real terminal: a signal that ends the process while it reads the secret without echo
// (SIGHUP, SIGINT by kill, SIGQUIT, SIGTERM) leaves the terminal as it found it, echo and line editing on.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCli } from '../commands/helpers';
import { probeKeychain, uniqueProfile } from '../credentials/keychainProbe';
import { TmuxSession, sleep, tmuxAvailable } from './tmux';

const missing = tmuxAvailable();
const keychain = await probeKeychain();
const why = missing ?? (keychain.ok ? undefined : `profile add reaches the keychain before it asks: ${keychain.reason}`);
if (why) console.warn(`SKIPPED e2e hidden-prompt tests: ${why}`);

const folder = mkdtempSync(join(tmpdir(), 'bc-e2e-hidden-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.skipIf(why !== undefined).concurrent('a signal at the hidden secret prompt', () => {
  it.for([
    ['SIGHUP', 129],
    ['SIGINT', 130],
    ['SIGQUIT', 131],
    ['SIGTERM', 143],
  ] as const)('%s: exit %i, the terminal echoes again, nothing saved', async ([signal, code], { onTestFinished }) => {
    const bin = await buildCli();
    const name = uniqueProfile('hup');
    const pidFile = join(folder, `${name}.pid`);
    const script = [
      `sh -c 'echo $$ > ${pidFile}; exec node ${bin} profile add ${name} --base-url http://127.0.0.1:9 --no-check'`,
      'printf "EXIT=%s\\n" $?',
      'stty -a | tr " " "\\n" | grep -x -e icanon -e -icanon -e echo -e -echo | tr "\\n" " "; printf "MODES\\n"',
      'sleep 600',
    ].join('; ');
    const session = TmuxSession.console(`bash --norc --noprofile -c '${script.replace(/'/g, `'"'"'`)}'`, folder, { home: name });
    onTestFinished(() => session.kill());
    await session.waitFor('API key (not shown):');
    await session.type('mx0vhidden');
    await session.keys('Enter');
    await session.waitFor('Secret key (not shown):');
    await sleep(50);
    process.kill(Number(readFileSync(pidFile, 'utf8').trim()), signal);
    const screen = await session.waitFor('MODES');
    expect(screen).toContain(`EXIT=${code}`);
    expect(screen).toMatch(/\bicanon echo MODES/);
    expect(screen).not.toContain('mx0vhidden');
    expect(existsSync(join(folder, name, 'profiles.json'))).toBe(false);
  });
});
