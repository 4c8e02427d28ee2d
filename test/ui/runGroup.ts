// The body of a group file (test/ui/groups.ts): each of the group's files under a describe of its name, so its
// top-level hooks (afterEach cleanups, beforeAll sandboxes) wrap its own tests only, as when it runs alone.
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe } from 'vitest';
import { uiGroupFiles } from './groups';

export function runUiGroup(group: number): void {
  for (const file of uiGroupFiles(group)) {
    describe(basename(file), async () => {
      await import(pathToFileURL(file).href);
    });
  }
}
