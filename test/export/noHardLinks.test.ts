// An export onto a file system without hard links (exFAT, FAT, many network shares): the complete file gets its
// name by a rename to a free one, instead of being removed when link(2) is refused.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBrokerApi } from '../../src/api/operations';
import { fileExporter } from '../../src/export/fileExporter';
import { type PagingServer, startPagingServer } from './pagingServers';
import { noHardLinksDisk } from './noHardLinks';

const disk = noHardLinksDisk();
if (!disk.ok) console.warn(`SKIPPED export onto a file system without hard links: ${disk.reason}`);

let server: PagingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.skipIf(!disk.ok)('an export onto exFAT (no hard links)', () => {
  it('every page, twice at the same second: two complete files under free names, nothing left -incomplete', async ({ onTestFinished }) => {
    if (!disk.ok) return;
    const { dir, unmount } = disk.mount();
    onTestFinished(unmount);
    server = await startPagingServer('finite', { total: 25 });
    const api = createBrokerApi({ baseUrl: server.baseUrl, apiKey: 'k', secretKey: 's', maxTries: 1 });
    onTestFinished(() => api.close());
    const exporter = fileExporter(api, dir, () => Date.UTC(2026, 10, 26, 12, 0, 0));
    const request = { query: { fromAccountType: 'SPOT', toAccountType: 'FUTURE', limit: 10 }, scope: 'all', format: 'csv' } as const;
    const first = await exporter.run(request, () => undefined, new AbortController().signal);
    const second = await exporter.run(request, () => undefined, new AbortController().signal);
    expect(first).toMatchObject({ path: join(dir, 'transfers-2026-11-26T12-00-00Z-all.csv'), rows: 25 });
    expect(second).toMatchObject({ path: join(dir, 'transfers-2026-11-26T12-00-00Z-all-2.csv'), rows: 25 });
    expect(readdirSync(dir).sort()).toEqual(['transfers-2026-11-26T12-00-00Z-all-2.csv', 'transfers-2026-11-26T12-00-00Z-all.csv']);
    for (const { path } of [first, second]) expect(readFileSync(path, 'utf8').trimEnd().split('\n')).toHaveLength(26);
  });
});
