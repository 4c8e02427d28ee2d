// The bin and the chunks it imports, ES modules bundled by esbuild:
//   dist/broker-console.js  the bin: --version, then Node's compile cache on and the program imported
//   dist/chunks/*.js        the program (React's production build, Ink), and undici, imported at the first request
//   dist/THIRD-PARTY-NOTICES.txt the licence notice of every package in the bundle (scripts/notices.mjs)
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { writeNotices } from './notices.mjs';

// Ink imports react-devtools-core only for development (DEV=true); the production bundle gets an empty stand-in.
const noDevtools = {
  name: 'no-devtools',
  setup(b) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'stub' }));
    b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export default { initialize() {}, connectToDevTools() {} };', loader: 'js' }));
  },
};

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));

/** `engines.node` as the bin checks it: `>=MAJOR.MINOR` is the one form it takes. */
function nodeMinimum(range) {
  const found = /^>=(\d+)\.(\d+)$/.exec(range ?? '');
  if (!found) throw new Error(`package.json engines.node must read >=MAJOR.MINOR, not ${JSON.stringify(range)}`);
  return `${found[1]}.${found[2]}`;
}

rmSync('dist', { recursive: true, force: true });
const bundled = await build({
  entryPoints: { 'broker-console': 'src/startup/bin.ts' },
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  define: {
    'process.env.NODE_ENV': '"production"',
    __BC_VERSION__: JSON.stringify(manifest.version),
    __BC_NODE_MIN__: JSON.stringify(nodeMinimum(manifest.engines?.node)),
  },
  // @github/keytar is a native addon outside the bundle: imported from node_modules when a profile needs it.
  external: ['@github/keytar'],
  // The CommonJS packages bundled (commander, undici) require Node's built-ins.
  banner: { js: "import { createRequire as __bcCreateRequire } from 'node:module'; const require = __bcCreateRequire(import.meta.url);" },
  plugins: [noDevtools],
  logLevel: 'warning',
  metafile: true,
});
writeNotices('.', [bundled.metafile], 'dist/THIRD-PARTY-NOTICES.txt');
