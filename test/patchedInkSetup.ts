// vitest's global setup: the patched copies of Ink and its text packages are in place before any worker starts.
import { preparePatchedInk } from './patchedInk.mjs';

export default function setup(): void {
  preparePatchedInk();
}
