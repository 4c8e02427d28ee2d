// One production bundle (plus lazily loaded chunks): React's production build and a single file load far faster than node_modules.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

// Ink imports react-devtools-core only for development (DEV=true); the production bundle gets an empty stand-in.
const noDevtools = {
  name: 'no-devtools',
  setup(b) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'stub' }));
    b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export default { initialize() {}, connectToDevTools() {} };', loader: 'js' }));
  },
};

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { 'broker-console': 'src/cli.tsx' },
  outdir: 'dist',
  // The console (Ink, React) goes in chunks loaded on first use: commands never parse them.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  // keytar is a native addon, loaded lazily from node_modules when a profile needs it.
  external: ['keytar'],
  plugins: [noDevtools],
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __bcCreateRequire } from 'node:module';\nconst require = __bcCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
