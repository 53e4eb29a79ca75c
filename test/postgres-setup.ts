// Once before the PostgreSQL run of the suites (vitest project "postgres"): a
// throwaway cluster (support/postgres.ts) and a template database with the
// schema migrated, which each test's books are copied from (support/books.ts);
// stopped and removed after the run.
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../src/main/ledger/core/postgres/open';
import { psqlSync, startPostgres } from './support/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: { socketDir: string; port: number; bin: string; template: string };
  }
}

const TEMPLATE = 'ldk_template';

export default async function setup(project: TestProject): Promise<() => void> {
  const server = startPostgres();
  try {
    psqlSync(server, `CREATE DATABASE ${TEMPLATE}`);
    await (await openPostgres(server.urlOf(TEMPLATE), { role: null })).end();
  } catch (error) {
    server.stop();
    throw error;
  }
  project.provide('postgres', { socketDir: server.socketDir, port: server.port, bin: server.bin, template: TEMPLATE });
  return () => server.stop();
}
