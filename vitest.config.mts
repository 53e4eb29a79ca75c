import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Commands the tests start run the TypeScript sources (bin/ledgerdesk.mjs); test/built.test.ts runs the build.
    env: { LEDGERDESK_SOURCE: '1' },
  },
});
