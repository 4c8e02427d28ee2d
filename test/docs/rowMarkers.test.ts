// The markers that start a table's rows (the cursor's, a key just created or arrived at) are each explained
// in docs/console.md, as the operator reads them without colour.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { MARKER } from '../../src/ui/components/WindowedTable';

const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'console.md'), 'utf8');

it('docs/console.md says what each row marker means', () => {
  const markers = Object.values(MARKER)
    .map((m) => m.trim())
    .filter((m) => m !== '');
  expect(markers).toEqual(['›', '+']);
  for (const marker of markers) {
    const quoted = `\`${marker.replace(/[+]/g, '\\+')}\``;
    expect(page, marker).toMatch(new RegExp(`${quoted} marks|marked ${quoted}`));
  }
});
