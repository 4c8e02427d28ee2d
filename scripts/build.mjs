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

// An ES import of a Node built-in builds the module's namespace by reading every export, which runs the lazy
// getters behind them (node:process opens stdin, node:fs loads fs/promises and readline, node:util parseArgs,
// its diff and worker_threads): the bundle takes each built-in from process.getBuiltinModule instead, and reads
// only the exports its importer uses. require() calls (undici's) are left to Node, which reads none.
const builtinsAsUsed = {
  name: 'builtins-as-used',
  setup(b) {
    // One stand-in per importer, bundled beside it: each keeps only the exports that importer reads.
    const importers = new Map();
    b.onResolve({ filter: /^node:/ }, (args) => {
      if (args.kind !== 'import-statement') return { path: args.path, external: true };
      if (!importers.has(args.importer)) importers.set(args.importer, importers.size);
      return { path: `${args.path}#${importers.get(args.importer)}`, namespace: 'builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => {
      const name = args.path.split('#')[0];
      const names = Object.getOwnPropertyNames(process.getBuiltinModule(name)).filter((key) => /^[A-Za-z_][\w]*$/.test(key) && key !== 'default');
      const lines = names.map((key) => `export const ${key} = /* @__PURE__ */ $read(${JSON.stringify(key)});`);
      const head = [`const $builtin = process.getBuiltinModule(${JSON.stringify(name)});`, 'const $read = (key) => $builtin[key];', 'export default $builtin;'];
      return { contents: [...head, ...lines].join('\n'), loader: 'js' };
    });
  },
};

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
  define: { 'process.env.NODE_ENV': '"production"', __BC_VERSION__: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
  // @github/keytar is a native addon outside the bundle: imported from node_modules when a profile needs it.
  external: ['@github/keytar'],
  // The CommonJS packages bundled (commander, undici) require Node's built-ins.
  banner: { js: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);" },
  plugins: [noDevtools, builtinsAsUsed],
  logLevel: 'warning',
  metafile: true,
});
writeNotices('.', [bundled.metafile], 'dist/THIRD-PARTY-NOTICES.txt');
