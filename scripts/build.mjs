// One production bundle: React's production build and a single file load far faster than node_modules.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli.tsx'],
  outfile: 'dist/broker-console.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: false,
  sourcemap: false,
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  // keytar is a native addon loaded lazily; react-devtools-core is only used by Ink in development.
  external: ['keytar', 'react-devtools-core'],
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __bcCreateRequire } from 'node:module';\nconst require = __bcCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
