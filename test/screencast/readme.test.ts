// The screen captures in docs/console.md are the screencast's stills (`npm run screencast` writes docs/screens/
// and puts each one between <!-- screen:NAME --> and <!-- /screen -->): this fails when they drift apart, and
// checks the recording those stills come from is there, well formed, and shown in the README.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/terminal/text';

const ROOT = join(import.meta.dirname, '..', '..');
const SCREENS = join(ROOT, 'docs', 'screens');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const screensPage = readFileSync(join(ROOT, 'docs', 'console.md'), 'utf8');
const stills = readdirSync(SCREENS)
  .filter((f) => f.endsWith('.txt'))
  .sort()
  .map((f) => ({ name: f.slice(0, -4), text: readFileSync(join(SCREENS, f), 'utf8') }));

/** Every capture block of docs/console.md: its name and the text of its code block. */
function readmeBlocks(): { name: string; body: string }[] {
  return [...screensPage.matchAll(/<!-- screen:([\w-]+) -->\n([\s\S]*?)<!-- \/screen -->/g)].map((m) => ({ name: m[1] as string, body: m[2] as string }));
}

describe('the screens in docs/console.md', () => {
  it('docs/screens holds the stills of the tour, 100x30, trailing spaces trimmed', () => {
    expect(stills.length).toBeGreaterThanOrEqual(15);
    for (const { name, text } of stills) {
      expect(name).toMatch(/^\d{2}-[a-z0-9-]+$/);
      const lines = text.replace(/\n$/, '').split('\n');
      expect(lines.length, name).toBe(30);
      for (const line of lines) {
        expect(line, name).toBe(line.trimEnd());
        expect(displayWidth(line), name).toBeLessThanOrEqual(100);
      }
    }
  });

  it('every still is in docs/console.md verbatim, once, between its markers', () => {
    const blocks = readmeBlocks();
    for (const { name, text } of stills) {
      const mine = blocks.filter((b) => b.name === name);
      expect(mine.length, `docs/console.md blocks for ${name} (run npm run screencast)`).toBe(1);
      expect(mine[0]?.body, `docs/console.md capture ${name} differs from docs/screens/${name}.txt (run npm run screencast)`).toBe(
        `\`\`\`text\n${text}\`\`\`\n`,
      );
    }
  });

  it('docs/console.md has no capture without a still', () => {
    const names = new Set(stills.map((s) => s.name));
    expect(
      readmeBlocks()
        .map((b) => b.name)
        .filter((n) => !names.has(n)),
    ).toEqual([]);
  });

  it('the recording is asciicast v2 at 100x30 with times that only go forward, shown in the README as an animation', () => {
    const [head, ...events] = readFileSync(join(ROOT, 'docs', 'demo.cast'), 'utf8')
      .trimEnd()
      .split('\n');
    expect(JSON.parse(head as string)).toMatchObject({ version: 2, width: 100, height: 30 });
    let last = 0;
    for (const line of events) {
      const [time, kind, data] = JSON.parse(line) as [number, string, string];
      expect(kind).toBe('o');
      expect(typeof data).toBe('string');
      expect(time).toBeGreaterThanOrEqual(last);
      last = time;
    }
    expect(last).toBeGreaterThan(30);
    const svg = readFileSync(join(ROOT, 'docs', 'demo.svg'), 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('@keyframes');
    expect(readme).toContain('](docs/demo.svg)');
  });
});
