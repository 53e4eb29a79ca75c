// Opening a ledger file: pragmas, forward-only migrations, and refusal of files
// written by a newer build. Everything else in ledger/ receives a `Ledger`.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { auditHash, type HashedEntry } from '../hash';
import { findShipped } from '../paths';
import { sqliteLedger } from './driver';
import { sqliteAddon } from './addon';

import type { Ledger } from '../storage';

export type { Ledger, Query } from '../storage';

export interface OpenOptions {
  /** better-sqlite3 addon built for another ABI (the Electron build keeps its own). */
  nativeBinding?: string;
  migrationsFolder?: string;
  readonly?: boolean;
  /** Told when the file is upgraded (a migration may take a while on large books). */
  log?: (message: string) => void;
}

export class NewerLedgerError extends Error {}

export function openLedger(file: string, options: OpenOptions = {}): Ledger {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const addon = options.nativeBinding ?? sqliteAddon();
  const sqlite = new Database(file, {
    readonly: options.readonly ?? false,
    ...(addon ? { nativeBinding: addon } : {}),
  });
  try {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // Statement journals (kept for every statement that could fail half way, that
    // is, each insert or update that has an index or a trigger) in memory, not
    // in a temporary file: written to a file, they were 16 writes per inserted
    // row and more than half the time of a large import.
    sqlite.pragma('temp_store = MEMORY');
    if (!options.readonly) {
      applyMigrations(sqlite, options.migrationsFolder ?? findShipped('db/migrations'), (m) => options.log?.(`${file}: ${m}`));
      if (file !== ':memory:') moveReceiptFiles(sqlite, join(dirname(file), 'receipts'), (m) => options.log?.(`${file}: ${m}`));
    }
    return sqliteLedger(file, sqlite);
  } catch (error) {
    sqlite.close();
    throw error;
  }
}

const require = createRequire(import.meta.url);

/**
 * Whether the file holds exactly the migrations the journal lists (the usual start): then nothing is due and nothing
 * unknown, found from the journal alone, without reading and hashing every migration's SQL (issue 51: start-up).
 */
function upToDate(sqlite: Database.Database, folder: string, hasTable: unknown): boolean {
  if (!hasTable) return false;
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  const applied = (sqlite.prepare('SELECT created_at FROM __drizzle_migrations').pluck().all() as (number | string)[]).map(Number);
  const listed = new Set(journal.entries.map((e) => e.when));
  return applied.length === listed.size && applied.every((when) => listed.has(when));
}

function applyMigrations(sqlite: Database.Database, folder: string, log: (message: string) => void): void {
  const hasTable = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (upToDate(sqlite, folder, hasTable)) return chainAuditLog(sqlite);
  const { readMigrationFiles } = require('drizzle-orm/migrator') as typeof import('drizzle-orm/migrator');
  const known = readMigrationFiles({ migrationsFolder: folder });
  let last = 0;
  if (hasTable) {
    const applied = sqlite.prepare('SELECT hash, created_at AS createdAt FROM __drizzle_migrations').all() as {
      hash: string;
      createdAt: number;
    }[];
    const unknown = applied.filter((row) => !known.some((m) => m.hash === row.hash && m.folderMillis === Number(row.createdAt)));
    if (unknown.length > 0) {
      throw new NewerLedgerError(
        `This ledger was written by a newer or different Ledgerdesk build (${unknown.length} migration(s) this build does not know). ` +
          'Update Ledgerdesk to open it; the file was not changed.',
      );
    }
    last = Math.max(0, ...applied.map((row) => Number(row.createdAt)));
  }
  // drizzle's migrator applies what is due (the same rule: newer than the last applied).
  // Its query layer takes ~80 ms to load, so it is loaded only when a migration is due.
  const due = known.filter((m) => m.folderMillis > last).length;
  if (due > 0) {
    const started = Date.now();
    if (hasTable) log(`upgrading the ledger file (${due} migration(s) from an earlier build)...`);
    const { drizzle } = require('drizzle-orm/better-sqlite3') as typeof import('drizzle-orm/better-sqlite3');
    const { migrate } = require('drizzle-orm/better-sqlite3/migrator') as typeof import('drizzle-orm/better-sqlite3/migrator');
    // No schema given: inferring drizzle()'s overloads and schema type was the slowest expression of the type check.
    migrate(drizzle<Record<string, never>>(sqlite), { migrationsFolder: folder });
    if (hasTable) log(`upgraded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  chainAuditLog(sqlite);
}

/**
 * Hashes the audit entries written before the chain existed (migration 0008),
 * in order, per organization. After that every entry is hashed as it is
 * written, so at a normal start this finds nothing (a partial index answers).
 */
function chainAuditLog(sqlite: Database.Database): void {
  const unhashed = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE name = 'audit_unhashed'").get() && sqlite.prepare('SELECT 1 FROM audit_log WHERE hash IS NULL LIMIT 1').get();
  if (!unhashed) return;
  sqlite
    .transaction(() => {
      const last = new Map<number, string>();
      const set = sqlite.prepare('UPDATE audit_log SET prev_hash = ?, hash = ? WHERE seq = ?');
      for (const e of sqlite.prepare('SELECT * FROM audit_log ORDER BY seq').all() as (HashedEntry & { seq: number; hash: string | null })[]) {
        const prev = last.get(e.org_seq) ?? '';
        const hash = e.hash ?? auditHash(prev, e);
        if (!e.hash) set.run(prev, hash, e.seq);
        last.set(e.org_seq, hash);
      }
    })
    .immediate();
}

/**
 * Receipts' files kept beside the ledger by an earlier build (<data>/receipts/<ab>/<sha256>, issue 44) move into
 * it, once: each into every organization whose receipts name it, in one transaction; then the folder goes. A file
 * no receipt names (a leftover) goes too.
 */
function moveReceiptFiles(sqlite: Database.Database, dir: string, log: (message: string) => void): void {
  if (!existsSync(dir)) return;
  const files = readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? readdirSync(join(dir, d.name))
          .filter((f) => /^[0-9a-f]{64}$/.test(f))
          .map((f) => join(dir, d.name, f))
      : [],
  );
  const orgs = sqlite.prepare('SELECT DISTINCT org_seq FROM receipts WHERE sha256 = ?').pluck();
  const keep = sqlite.prepare('INSERT INTO receipt_files (org_seq, sha256, size_bytes, bytes, stored_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING');
  const at = new Date().toISOString();
  sqlite
    .transaction(() => {
      for (const path of files) {
        const sha256 = path.slice(-64);
        const bytes = readFileSync(path);
        for (const org of orgs.all(sha256)) keep.run(org, sha256, bytes.length, bytes, at);
      }
    })
    .immediate();
  rmSync(dir, { recursive: true, force: true });
  if (files.length) log(`moved ${files.length} receipt file(s) from ${dir} into the ledger`);
}
