import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` turns changes in db/schema.ts into a new forward-only
// migration under db/migrations; the ledger applies them when it opens a file.
export default defineConfig({
  dialect: 'sqlite',
  schema: './db/schema.ts',
  out: './db/migrations',
});
