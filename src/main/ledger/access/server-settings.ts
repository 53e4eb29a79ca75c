// The server's own settings (issue 50), kept in its books' database rather than
// in one shell's environment: a firm's `user add`, run on any machine against
// the database, prints an invitation link to the address people reach, which
// `serve --public-url` named when it started. Not an organization's books, so
// not in any organization's audit log.
import type { Ledger } from '../core/storage';
import { nowIso } from '../core/clock';

/** The names kept, one line each. */
export type ServerSetting = 'public_url';

export async function serverSetting(ledger: Ledger, name: ServerSetting): Promise<string | undefined> {
  const row = (await ledger.stmt('SELECT value FROM server_settings WHERE name = ?').get(name)) as { value: string } | undefined;
  return row?.value;
}

export async function keepServerSetting(ledger: Ledger, name: ServerSetting, value: string): Promise<void> {
  await ledger
    .stmt('INSERT INTO server_settings (name, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at')
    .run(name, value, nowIso());
}
