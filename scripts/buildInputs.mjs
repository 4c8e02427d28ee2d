// What a build read and wrote, by content: scripts/build.mjs does nothing when the sources, the build scripts, the
// locked dependencies and Node are those of the last build and dist/ is as that build left it; the tests use the
// same check to know whether dist/ is current. Run from the repository's root (as npm runs the build).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Read by the build besides src/ (node_modules is what package-lock.json pins). */
const INPUTS = ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.mjs', 'scripts/scriptBundle.mjs', 'scripts/textPatches.mjs', 'scripts/buildInputs.mjs', 'scripts/notices.mjs'];
const STAMP = 'node_modules/.cache/broker-console-build.json';

function filesUnder(root, folder) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(relative(root, path));
    }
  };
  walk(join(root, folder));
  return files.sort();
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** The hash of these files and of every file under these folders, with Node's version. */
export function hashOf(root, files, folders) {
  const hash = createHash('sha256').update(`${process.version}\0`);
  for (const file of [...files, ...folders.flatMap((folder) => filesUnder(root, folder))]) hash.update(`${file}\0`).update(readFileSync(join(root, file))).update('\0');
  return hash.digest('hex');
}

/** The hash of what a build reads, taken before it starts (a file changed meanwhile then makes the next build run). */
export function inputsHash(root) {
  return hashOf(root, INPUTS, ['src']);
}

function outputs(root) {
  return Object.fromEntries(filesUnder(root, 'dist').map((file) => [file, sha256(readFileSync(join(root, file)))]));
}

/** Whether dist/ is what a build of these inputs wrote (false when anything is missing or unreadable). */
export function distIsCurrent(root, inputs = inputsHash(root)) {
  try {
    const stamp = JSON.parse(readFileSync(join(root, STAMP), 'utf8'));
    return stamp.inputs === inputs && JSON.stringify(stamp.outputs) === JSON.stringify(outputs(root));
  } catch {
    return false;
  }
}

/** Notes the inputs (hashed as the build started) and dist/ of the build that just finished. */
export function stampBuild(root, inputs) {
  mkdirSync(dirname(join(root, STAMP)), { recursive: true });
  writeFileSync(join(root, STAMP), `${JSON.stringify({ inputs, outputs: outputs(root) })}\n`);
}
