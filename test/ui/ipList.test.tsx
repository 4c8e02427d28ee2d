// A cut IP list keeps whole addresses and says how many it hides.
import { isIP } from 'node:net';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ipCell, ipLines, ipPerLine } from '../../src/ui/ipList';
import { NO_IP } from '../../src/format/noIp';
import { displayWidth } from '../../src/terminal/text';
import { consoleFor } from './harness';
import { lineWith, openKeys, seededAccounts } from './flows';

const IPS = ['203.0.113.7', '198.51.100.20', '192.0.2.1', '198.51.100.99'];

describe('ipCell and ipLines', () => {
  test('all that fit are shown whole; the rest counted', () => {
    expect(ipCell(IPS, 80)).toBe(IPS.join(','));
    expect(ipCell(IPS, 30)).toBe('203.0.113.7,198.51.100.20 +2');
    expect(ipCell(IPS, 20)).toBe('203.0.113.7 +3');
    expect(ipLines(IPS, 30, 1, ', ')).toEqual(['203.0.113.7, 198.51.100.20 +2']);
  });

  test('in several lines, each line but the last ends with the joint; the count closes the last', () => {
    expect(ipLines(IPS, 20, 2, ', ')).toEqual(['203.0.113.7,', '198.51.100.20 +2']);
    expect(ipLines(IPS, 28, 3, ', ')).toEqual(['203.0.113.7, 198.51.100.20,', '192.0.2.1, 198.51.100.99']);
  });

  test('too narrow for one address and the count: the address cut, then the count; never wider than asked', () => {
    expect(ipCell(IPS, 10)).toBe('203.0.… +3');
    for (let w = 1; w <= 40; w++) for (const line of ipLines(IPS, w, 2)) expect(displayWidth(line)).toBeLessThanOrEqual(w);
  });

  test('no IP: the one wording', () => {
    expect(ipCell([], 40)).toBe(NO_IP);
  });
});

describe.concurrent('the key list and the key detail say how many IPs they hide', { timeout: 40_000 }, () => {
  test('a key list row: the whole addresses that fit, then +N for the others', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 120, rows: 30 });
    const { busy, busyKeys } = await seededAccounts(c);
    await openKeys(c, busy);
    const cut = busyKeys.filter((k) => k.ips.length > 1 && !c.frame().includes(k.ips.join(',')));
    expect(cut.length).toBeGreaterThan(0);
    for (const k of cut) {
      const line = lineWith(c.frame(), k.apiKey);
      const whole = k.ips.filter((ip) => line.includes(ip));
      expect(whole.length).toBeGreaterThan(0);
      expect(line).toContain(`${whole.join(',')} +${k.ips.length - whole.length} `);
    }
  });

  test('the key detail at 40x12: the linked IPs it has no room for are counted', async ({ onTestFinished }) => {
    const c = await consoleFor(onTestFinished, { columns: 40, rows: 12 });
    const { busy, busyKeys } = await seededAccounts(c);
    const most = busyKeys.reduce((a, b) => (b.ips.length > a.ips.length ? b : a));
    expect(most.ips.length).toBeGreaterThan(2);
    await openKeys(c, busy);
    await c.press('enter');
    await c.press('j', busyKeys.indexOf(most));
    await c.waitForText(`· ${busyKeys.indexOf(most) + 1} of ${busyKeys.length}`);
    const frame = c.frame();
    const field = frame.slice(frame.indexOf('Linked IPs'), frame.indexOf('Created'));
    const whole = most.ips.filter((ip) => field.includes(ip));
    expect(whole.length).toBeGreaterThan(0);
    expect(whole.length).toBeLessThan(most.ips.length);
    expect(field).toContain(` +${most.ips.length - whole.length}`);
    expect(field).not.toContain('…');
  });
});

describe('ipPerLine: one address a line for the review, never a piece that reads as an address', () => {
  const cases: Array<[string[], number]> = [
    [['2001:db8:85a3::8a2e:370:7334', '198.51.100.20'], 27],
    [['2001:db8:85a3:1234:5678::8a2e:7334', '198.51.100.20'], 27],
    [['0000:0000:0000:0000:0000:ffff:192.168.100.200'], 27],
    [['2001:db8::1', '203.0.113.7'], 27],
    [['1:2:3:4:5:6:7:8'], 10],
  ];
  test.each(cases)('%j at %i', (ips, width) => {
    const lines = ipPerLine(ips, width);
    for (const line of lines) {
      expect(displayWidth(line)).toBeLessThanOrEqual(Math.max(2, width));
      const text = line.replace(/,$/, '');
      if (isIP(text) !== 0) expect(ips).toContain(text);
    }
    // Read back, without the marks of a piece carried over, the addresses as given, each once.
    expect(lines.join('').replace(/…/g, '')).toBe(ips.join(','));
  });

  test('property: any IPv6 addresses at any width from 10: every piece fits, none reads as an address not given', () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
    const ipv6 = fc.array(group, { minLength: 8, maxLength: 8 }).map((groups) => {
      const text = groups.join(':');
      return text.replace(/(^|:)0(:0)+(:|$)/, '::');
    });
    fc.assert(
      fc.property(fc.array(ipv6, { minLength: 1, maxLength: 4 }), fc.integer({ min: 10, max: 60 }), (ips, width) => {
        fc.pre(ips.every((ip) => isIP(ip) === 6));
        const lines = ipPerLine(ips, width);
        for (const line of lines) {
          expect(displayWidth(line)).toBeLessThanOrEqual(width);
          const text = line.replace(/,$/, '');
          if (isIP(text) !== 0) expect(ips).toContain(text);
        }
        expect(lines.join('').replace(/…/g, '')).toBe(ips.join(','));
      }),
    );
  });
});
