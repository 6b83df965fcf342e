import { configDefaults, defineConfig } from 'vitest/config';

const e2eWorkers = Math.max(1, Number(process.env.E2E_WORKERS ?? 2) || 1);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}'],
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          // The fault suite is a project of its own (below, `npm run test:faults`).
          exclude: [...configDefaults.exclude, 'apps/server/test/faults/**'],
          // One PostgreSQL server for the run (embedded, or DATABASE_URL's); each file gets its own database.
          // `npm run test:server` runs two files at a time (--maxWorkers=2) even on 2 cores: a file
          // mostly waits on PostgreSQL, and the suite took 529 s one at a time against 273 s.
          globalSetup: ['apps/server/test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // The files share each worker's loaded modules: loading the server afresh for every file
          // cost about 4.3 s a file (444 s summed over 103 files). Module-level state is keyed by
          // the app's context (WeakMap<AppContext, …>), so one file's app never sees another's.
          isolate: false,
        },
      },
      {
        test: {
          name: 'faults',
          include: ['apps/server/test/faults/**/*.fault.test.ts'],
          // Real server processes, PostgreSQL behind a fault proxy and the suite's own Mosquitto
          // (docs/mqtt.md "What survives what"); FAULTS_QUICK=1 shortens the outages and rounds.
          globalSetup: ['apps/server/test/faults/support/global-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 240_000,
          pool: 'forks',
          // One file at a time: each starts servers and streams devices, and the counts are only
          // meaningful on a machine the other cases do not load.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'cluster',
          include: ['e2e/cluster/**/*.cluster.test.ts'],
          // HAProxy in front of three real server processes on the machine's PostgreSQL and Redis and
          // a Mosquitto of its own, a browser and devices through it, one process killed and started
          // again (docs/deploy.md "The cluster test"); `npm run test:cluster`, not part of `npm test`.
          globalSetup: ['e2e/cluster/support/global-setup.ts'],
          testTimeout: 600_000,
          hookTimeout: 240_000,
          pool: 'forks',
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/specs/**/*.e2e.test.ts'],
          // The real server with the built web app, driven in Debian's Chromium.
          globalSetup: ['e2e/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // expect.poll's own default is 1 s: a reload that takes longer on a loaded machine (the
          // top-menu test's side menu, seen failing at load 8) failed though the screen was right.
          expect: { poll: { timeout: 15_000 } },
          // Two files at a time, each on a server of its own (support/global-setup.ts starts one
          // per worker; E2E_WORKERS=1 for one): a file spends much of its time waiting on its
          // browser and server, so the other core does the other file's work meanwhile.
          maxWorkers: e2eWorkers,
          // CI machines are shared and loaded; one retry absorbs a timing hiccup of the browser,
          // while a test that fails twice still fails the run (the report names every retry).
          retry: process.env.CI ? 1 : 0,
        },
      },
    ],
  },
});
