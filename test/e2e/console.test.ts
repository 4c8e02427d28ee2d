// The built binary in a real terminal: the whole demo journey (the README's tour), with a --log-file that takes
// nothing, ending with Ctrl-C and a terminal restored to how it was.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from '../commands/helpers';
import { TmuxSession, tmuxAvailable } from './tmux';

const missing = tmuxAvailable();
if (missing) console.warn(`SKIPPED e2e console tests: ${missing}`);

describe.skipIf(missing !== undefined)('console in tmux (80x24)', () => {
  let session: TmuxSession;
  let folder: string;

  beforeAll(async () => {
    const bin = await buildCli();
    folder = mkdtempSync(join(tmpdir(), 'bc-e2e-'));
    const script = [
      'printf "BEFORE-THE-CONSOLE\\n"',
      // A log file that takes nothing: the console goes on, and says so once it has left the screen.
      `node ${bin} --demo --log-file /dev/full`,
      'printf "EXIT=%s\\n" $?',
      'stty -a | tr " " "\\n" | grep -x -e icanon -e -icanon -e echo -e -echo | tr "\\n" " "; printf "\\n"',
      'sleep 600',
    ].join('; ');
    session = TmuxSession.console(`bash --norc --noprofile -c '${script}'`, folder);
  });

  afterAll(() => {
    session?.kill();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('runs the demo journey from picker to export, then quits with Ctrl-C and restores the terminal', async () => {
    // Start: DEMO badge, picker, alternate screen (the line printed before is not on it).
    let screen = await session.waitFor('Choose a sub-account');
    expect(screen).toContain('DEMO');
    expect(screen).not.toContain('BEFORE-THE-CONSOLE');
    expect(screen.trimEnd().split('\n').length).toBeLessThanOrEqual(23);

    // Pick a sub-account by typing its name.
    await session.type('mmbot5143');
    await session.keys('Enter');
    screen = await session.waitFor(/API keys of mmbot5143 · \d+ keys?/);
    const before = Number(/API keys of mmbot5143 · (\d+) key/.exec(screen)![1]);
    expect(screen).toContain('list keys 200');

    // Create with five IPs: the error names ip, and nothing is sent (the last request is still the list).
    await session.keys('n');
    await session.waitFor('New API key for mmbot5143');
    // Each key waits for its visible effect, so no key races a focus change on a loaded machine.
    await session.keys('Space');
    await session.waitFor('(1 chosen');
    await session.keys('Tab');
    await session.waitFor('› Other');
    await session.keys('Tab');
    await session.waitFor('› Linked IPs');
    await session.type('10.0.0.1,10.0.0.2,10.0.0.3,10.0.0.4,10.0.0.5');
    await session.waitFor('5/4');
    await session.keys('Tab');
    await session.waitFor('› Note');
    await session.type('e2e bot');
    await session.waitFor('› Note        e2e bot');
    await session.keys('Enter');
    // The live check already shows the IP error while typing; Enter's effect is the focus moving to the field at fault.
    screen = await session.waitFor((s) => s.includes('✗ at most 4 addresses') && s.includes('› Linked IPs'));
    expect(screen).toContain('5/4');
    expect(screen).toContain('list keys 200');
    expect(screen).not.toContain('create key');

    // The failed check put the cursor on the field at fault. Down to two IPs: the counter follows, review
    // shows what will be sent, then the secret, once.
    expect(screen).toContain('› Linked IPs');
    await session.keys('End', ...Array<string>(27).fill('BSpace'));
    screen = await session.waitFor('2/4');
    expect(screen).not.toContain('at most 4 addresses');
    await session.keys('Enter');
    screen = await session.waitFor('exactly what will be sent');
    expect(screen).toMatch(/ip\s+10\.0\.0\.1,10\.0\.0\.2/);
    await session.keys('Enter');
    screen = await session.waitFor('Store the secret key now');
    expect(screen).toContain('create key 200');
    const apiKey = /API key\s+(mx0v\w+)/.exec(screen)![1]!;
    await session.keys('v');
    screen = await session.waitFor(/Secret key\s+[0-9a-f]{64}/);
    const secret = /Secret key\s+([0-9a-f]{64})/.exec(screen)![1]!;
    await session.keys('Enter');
    await session.waitFor('Have you stored the secret key?');
    await session.keys('y');
    screen = await session.waitFor(new RegExp(`API keys of mmbot5143 · ${before + 1} keys`));
    expect(screen).not.toContain(secret);
    expect(screen).toContain('e2e bot');
    expect(screen).toContain(`${apiKey.slice(0, 4)}…${apiKey.slice(-4)}`);

    // Transfers: filter (defaults SPOT → FUTURES), results, next page, export this page to CSV.
    await session.keys('C-t');
    await session.waitFor('Universal transfers: filter');
    await session.keys('Enter');
    screen = await session.waitFor(/Page 1 · 500 per page · 500 rows/);
    expect(screen).toContain('Filter: SPOT → FUTURES');
    expect(screen).toMatch(/Page totals, SUCCESS only \(\d+ of \d+ rows\): BTC [\d.]+/);
    await session.keys('n');
    await session.waitFor(/Page 2 · 500 per page · 500 rows/);
    await session.keys('x');
    await session.waitFor('Export transfers');
    await session.keys('Enter');
    await session.waitFor(/Wrote 500 rows \(1 page\) to /);
    const exported = readdirSync(folder).filter((f) => f.endsWith('.csv'));
    expect(exported).toHaveLength(1);
    const lines = readFileSync(join(folder, exported[0]!), 'utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('tranId,fromAccount,toAccount,clientTranId,asset,amount,fromAccountType,toAccountType,fromSymbol,toSymbol,status,timestamp');
    expect(lines).toHaveLength(501);
    await session.keys('Escape');

    // Ctrl-C from deep inside: exit 130, the shell's screen is back, the tty is back in cooked mode with echo.
    await session.keys('C-c');
    screen = await session.waitFor(/EXIT=\d+\n.*icanon/);
    expect(screen).toContain('EXIT=130');
    expect(screen).toMatch(/^warning: --log-file: [\d,]+ lines? could not be written to \/dev\/full \(left out whole\)$/m);
    expect(screen).toContain('BEFORE-THE-CONSOLE');
    expect(screen).toMatch(/(^|\s)icanon(\s|$)/m);
    expect(screen).toMatch(/(^|\s)echo(\s|$)/m);
    // Nothing of the console (and so nothing of the secret) stays in the scrollback.
    const history = session.history();
    expect(history).not.toContain(secret);
    expect(history).not.toContain('Choose a sub-account');
  }, 60_000);
});
