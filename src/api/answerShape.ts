// How an unreadable create answer is described without any of its bytes (it may carry a secret under any name
// or encoding), and which create answers were not valid UTF-8 (their secret cannot be the service's exact one).
import { sanitize } from '../terminal/sanitize';

/** Answers (as parsed) whose bytes were not valid UTF-8: read with replacement characters, so not as sent. */
export const unreadableAnswers = new WeakSet<object>();

/** The text of a create answer, and whether its bytes were valid UTF-8 (undici gives bytes; a lossy decode hides that). */
export function decodeCreateAnswer(bytes: Uint8Array): { text: string; valid: boolean } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), valid: true };
  } catch {
    return { text: Buffer.from(bytes).toString('utf8'), valid: false };
  }
}

/** At most this many top-level field names are listed. */
const MAX_NAMES = 12;

/**
 * "application/xml, 412 bytes" or "JSON object with fields code, data, 88 bytes": the answer by its shape only.
 * Field names are the top level of a JSON object (each cut short and sanitised); never a value.
 */
export function answerShape(text: string, bytes: number, contentType: string | undefined): string {
  const type = contentType === undefined || contentType.trim() === '' ? 'no content type' : sanitize(contentType.split(';')[0]!.trim(), 60);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `${type}, ${bytes} bytes, not JSON`;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const names = Object.keys(value);
    const listed = names.slice(0, MAX_NAMES).map((name) => sanitize(name, 32));
    const more = names.length > MAX_NAMES ? ` and ${names.length - MAX_NAMES} more` : '';
    return `${type}, ${bytes} bytes, a JSON object with ${names.length === 0 ? 'no fields' : `fields ${listed.join(', ')}${more}`}`;
  }
  const kind = Array.isArray(value) ? 'a JSON array' : value === null ? 'JSON null' : `a JSON ${typeof value}`;
  return `${type}, ${bytes} bytes, ${kind}`;
}
