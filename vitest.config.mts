import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// Suites about what only one engine has, or about no books at all, run once (on SQLite); every suite about
// the books runs on both engines: SQLite files in temp folders, and databases of a throwaway PostgreSQL
// cluster (test/postgres-setup.ts) with LEDGERDESK_TEST_ENGINE=postgres (test/support/books.ts).
const SQLITE_ONLY = [
  'test/ledger-open.test.ts', // SQLite files of earlier builds, upgraded
  'test/backup.test.ts', // SQLite backup files (a server's books: pg_dump)
  'test/cli.test.ts', // a data folder's server: its pid file, a second start, npm start (a database's: postgres-servers.test.ts)
  'test/storage.test.ts', // the SQLite driver's turns on its one connection
  'test/electron.test.ts', // the desktop app (SQLite only)
  'test/electron-firm.test.ts', // the desktop's window onto a firm's server: no books
  'test/server-reach.test.ts', // the server's transport (TLS, a proxy's public URL), whatever the books
  'test/built.test.ts', // the build's outputs
  'test/import-memory.test.ts', // the SQLite import's memory
  'test/bench-load.test.ts',
  'test/test-tools.test.ts',
  'test/deploy.test.ts', // the Dockerfile, compose.yaml and the systemd unit: how the server is run, whatever the books
  'test/openapi.test.ts',
  'test/conformance.test.ts',
  'test/units.test.ts',
  'test/amounts.test.ts',
  'test/enable-banking.test.ts', // a provider against its double: no books
  'test/node-postgres.test.ts', // how the PostgreSQL driver loads: no books
];
const POSTGRES_ONLY = ['test/postgres*.test.ts'];

const shared: TestProjectInlineConfiguration['test'] = {
  pool: 'forks',
  // A worker runs its files one after another in one process, the modules they import loaded once (not per file):
  // loading the domain's modules was a quarter of the run (583 s of 2,847 summed). So a test that changes what a
  // module holds (a source it points elsewhere, an environment variable) puts it back in its afterAll.
  isolate: false,
  // What helpers opened closed at each file's end (test/support/file-end.ts); every total recounted from the rows
  // after every test (test/support/recount.ts); a failed browser test's pages printed.
  setupFiles: ['test/support/file-end.ts', 'test/support/recount.ts', 'test/support/browser-witness.ts'],
  // A guard against a test that hangs, not a speed check (speed is npm run bench's): two files at once on two cores
  // can take a command-heavy test past 30 s.
  testTimeout: 90_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    // Two files at once even on two cores (Vitest's default is one fewer than the cores): most of a file's time is
    // spent waiting on what it started (commands, servers, PostgreSQL, Chromium), so the second core is otherwise idle.
    maxWorkers: 2,
    projects: [
      {
        test: {
          ...shared,
          name: 'sqlite',
          include: ['test/**/*.test.ts'],
          exclude: POSTGRES_ONLY,
          globalSetup: ['test/global-setup.ts'],
          // Commands the tests start run the build global-setup made from the sources (out/cli, as `npm install` leaves
          // it): a command starts in a fifth of the time the sources through tsx take.
          env: { LEDGERDESK_SOURCE: '' },
        },
      },
      {
        test: {
          ...shared,
          name: 'postgres',
          include: ['test/**/*.test.ts'],
          exclude: SQLITE_ONLY,
          globalSetup: ['test/global-setup.ts', 'test/postgres-setup.ts'],
          // A firm's server is given the key that seals its secrets (docs/secrets.md); this one is the tests' own.
          env: { LEDGERDESK_SOURCE: '', LEDGERDESK_TEST_ENGINE: 'postgres', LEDGERDESK_SECRET_KEY: 'nrDrRLEHGhfaexEhOtcxfCFm3bRPEIi9jkkk1blhQyE=' },
        },
      },
    ],
  },
});
