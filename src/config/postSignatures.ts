// The POST signature rule (query only, or query + body) each base URL last accepted for a create, so that the
// next run under 'auto' sends that rule first instead of meeting a 700002 again. Not secret: a small JSON file
// in the config folder, written whole or not at all. A wrong entry heals itself: the service refuses it
// (700002), the client resends once by the other rule and the rule that worked replaces it.
import * as v from 'valibot';
import type { PostSignatureRule } from '../api/signing';
import { perBaseUrlFile } from './perBaseUrl';

export const POST_SIGNATURES_FILE = 'post-signatures.json';
/** Base URLs remembered; the least recently confirmed are dropped first. */
export const MAX_POST_SIGNATURES = 32;

const Entry = v.object({
  rule: v.picklist(['query', 'body']),
  acceptedAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
const file = perBaseUrlFile(POST_SIGNATURES_FILE, Entry, MAX_POST_SIGNATURES, (entry) => entry.acceptedAt);

export function postSignaturesPath(folder: string): string {
  return file.path(folder);
}

/** The rule this base URL last accepted, or undefined. Never throws. */
export async function loadPostSignature(folder: string, baseUrl: string): Promise<PostSignatureRule | undefined> {
  return (await file.read(folder)).get(baseUrl)?.rule;
}

/**
 * Remembers the rule for this base URL; keeps the file to MAX_POST_SIGNATURES entries. Throws what the write
 * throws; callers treat it as best effort.
 */
export async function savePostSignature(folder: string, baseUrl: string, rule: PostSignatureRule, now: number = Date.now()): Promise<void> {
  await file.update(folder, (entries) => {
    entries.set(baseUrl, { rule, acceptedAt: Math.max(0, Math.round(now)) });
    return true;
  });
}
