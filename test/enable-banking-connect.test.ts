// `ledgerdesk connector add enable-banking` end to end (issue 52), against the
// Enable Banking double: the command prints the bank's link and waits on its
// loopback listener; the "person" opens the link, the bank's page sends the
// browser back with the code; the session's account is mapped, synced by
// `connector sync`, and listed. The application's private key is in no output
// and nowhere in the data folder but sealed.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startEnableBankingDouble, transaction, type EnableBankingDouble } from './doubles/enable-banking';
import { booksFlags } from './support/books';
import { tempDir } from './support/env';

const BIN = join(__dirname, '..', 'bin', 'ledgerdesk.mjs');
const APP_ID = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const KEY_LINES = PEM.split('\n').filter((l) => l.length > 20);
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
let eb: EnableBankingDouble;
let data: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  eb = await startEnableBankingDouble({ applicationId: APP_ID, publicKey: publicKey as KeyObject });
  eb.accounts.push({
    uid: 'acc-1',
    iban: 'GB33BUKB20201555555555',
    product: 'Business Current Account',
    currency: 'GBP',
    transactions: [transaction('ref-1', '42.10', 'DBIT', yesterday, { remittance_information: ['PAPER SUPPLIES LTD'] })],
    balances: [],
  });
  data = tempDir('ldk-eb-connect-');
  env = { ...process.env, LEDGERDESK_ENABLE_BANKING_URL: eb.url };
});
afterAll(() => eb?.close());

// Asynchronously: the double answers from this process, so a command must not block it.
const run = async (...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> =>
  promisify(execFile)(process.execPath, [BIN, ...args, ...booksFlags(data)], { encoding: 'utf8', env, timeout: 120_000 }).then(
    (r) => ({ status: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ status: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

describe('connector add enable-banking', () => {
  it('prints the bank’s link, takes the bank’s answer on its own listener, maps the account, and syncs it', async () => {
    const keyFile = join(data, '..', `eb-${Date.now()}.pem`);
    writeFileSync(keyFile, PEM, { mode: 0o600 });
    const redirect = `http://127.0.0.1:${await freePort()}/enable-banking/callback`;
    const args = ['connector', 'add', 'enable-banking', '--country', 'GB', '--bank', 'Hartley Bank', '--application-id', APP_ID, '--private-key-file', keyFile];
    // A UK firm's books: the bank's pounds are the organization's own.
    expect((await run('org', 'create', 'hartley', '--name', 'Hartley Studio', '--currency', 'GBP')).status).toBe(0);
    const child = spawn(process.execPath, [BIN, ...args, '--org', 'hartley', '--redirect-url', redirect, '--account', 'Current', ...booksFlags(data)], { env });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    const opened = new Promise<void>((resolve) =>
      child.stderr.on('data', (c) => {
        err += c;
        const link = /consent[^\n]*\n(\S+)/.exec(err)?.[1];
        if (link && !err.includes('\u0000')) {
          err += '\u0000';
          void fetch(link).then((r) => r.text().then(() => resolve()));
        }
      }),
    );
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    await opened;
    expect(code, err).toBe(0);
    expect(out).toMatch(/Bank feed\s+\(enable-banking\)\s+active/);

    const synced = await run('connector', 'sync', 'Bank feed', '--org', 'hartley');
    expect(synced.status, synced.stderr + synced.stdout).toBe(0);
    const listed = JSON.parse((await run('connector', 'list', '--json', '--org', 'hartley')).stdout) as { provider: string; accounts: { name: string }[] }[];
    expect(listed.map((c) => c.provider)).toEqual(['enable-banking']);
    const rows = await run('tx', 'list', '--json', '--org', 'hartley');
    expect(rows.stdout).toContain('PAPER SUPPLIES LTD');
    for (const text of [
      out,
      err,
      synced.stdout,
      synced.stderr,
      rows.stdout,
      ...readdirSync(data)
        .filter((f) => f !== 'secret.key')
        .map((f) => readFileSync(join(data, f), 'latin1')),
    ])
      for (const line of KEY_LINES) expect(text).not.toContain(line);
  });
});
