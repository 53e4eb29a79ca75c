// HMRC's owner commands (issue 54) as child processes on real books, against
// the HMRC double: `hmrc connect` prints HMRC's sign-in link and waits on its
// loopback listener for HMRC to send the browser back; `hmrc obligations`,
// `hmrc liabilities`, `tax return submit` refused without the declaration and
// then sent, printing HMRC's receipt; `hmrc status`.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskContext } from '../src/main/desk/operations';
import * as L from '../src/main/ledger';
import { booksFlags } from './support/books';
import { deskAs } from './support/desk';
import { tempLedger } from './support/env';
import { startHmrcDouble } from './doubles/hmrc';

const { ledger, dir } = await tempLedger();
const ctx: DeskContext = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
const org = await L.createOrganization(ledger, { slug: 'cmd', name: 'Command Ltd', currency: 'GBP' });
const double = await startHmrcDouble({ vrn: '123456782', obligations: [{ periodKey: '26A1', start: '2026-01-01', end: '2026-03-31', due: '2026-05-07' }] });
const bin = join(__dirname, '..', 'bin', 'ledgerdesk.mjs');
const env = { ...process.env, LEDGERDESK_HMRC_CLIENT_ID: double.clientId, LEDGERDESK_HMRC_CLIENT_SECRET: double.clientSecret, LEDGERDESK_HMRC_URL: double.url };
const saved = { ...process.env };
Object.assign(process.env, env);
afterAll(async () => {
  for (const k of ['LEDGERDESK_HMRC_CLIENT_ID', 'LEDGERDESK_HMRC_CLIENT_SECRET', 'LEDGERDESK_HMRC_URL']) if (saved[k] === undefined) delete process.env[k];
  await double.close();
});
/** A command as a child process, awaited (the double answers from this process: a synchronous spawn would block it). */
const command = (...args: string[]) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((ok) => {
    const child = spawn(process.execPath, [bin, ...args, ...booksFlags(dir)], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += String(c)));
    child.stderr.on('data', (c) => (stderr += String(c)));
    child.on('exit', (status) => ok({ status, stdout, stderr }));
  });
const run = async (...args: string[]) => {
  const r = await command(...args);
  expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
};
const freePort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });

beforeAll(async () => {
  await deskAs(ctx, org.id, 'setupTax', { set: 'uk-vat' });
  await deskAs(ctx, org.id, 'taxSettings', { period: 'quarterly', startMonth: 1 });
  await deskAs(ctx, org.id, 'createAccount', { name: 'Bank', type: 'checking' });
  await deskAs(ctx, org.id, 'addTransaction', { account: 'Bank', date: '2026-02-10', amount: '120.00', description: 'Work', categoryCode: '4000', taxCode: 'S' });
});

describe('ledgerdesk hmrc and tax return submit', () => {
  it('connects: prints the sign-in link, waits for HMRC to send the browser back', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [bin, 'hmrc', 'connect', '123456782', '--org', 'cmd', '--port', String(port), ...booksFlags(dir)], { env });
    let out = '';
    let err = '';
    child.stderr.on('data', (c) => (err += String(c)));
    const exited = new Promise<number | null>((ok) => child.on('exit', ok));
    const link = await new Promise<string>((ok, fail) => {
      child.stdout.on('data', (c) => {
        out += String(c);
        const m = /(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/.exec(out);
        if (m) ok(m[1]);
      });
      void exited.then(() => fail(new Error(`exited: ${out} ${err}`)));
    });
    expect(new URL(link).searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${port}/hmrc/callback`);
    const signIn = await fetch(link, { redirect: 'manual' });
    expect((await fetch(signIn.headers.get('location')!)).status).toBe(200);
    expect(await exited, err).toBe(0);
    expect(out).toMatch(/Connected to HMRC for VRN 123456782 until \d{4}-\d\d-\d\d\./);
    expect(await run('hmrc', 'status', '--org', 'cmd')).toMatch(/VRN 123456782: connected until/);
  }, 120_000);

  it('says which loopback port is taken, why HMRC needs that one, and what to do', async () => {
    // Another program holds the port registered with HMRC.
    const holder = createServer();
    const port = await new Promise<number>((ok) => holder.listen(0, '127.0.0.1', () => ok((holder.address() as { port: number }).port)));
    try {
      const r = await command('hmrc', 'connect', '123456782', '--org', 'cmd', '--port', String(port));
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(new RegExp(`Port ${port} on this computer is taken by another program`));
      expect(r.stderr).toMatch(new RegExp(`registered exactly with your application on HMRC's Developer Hub \\(http://127\\.0\\.0\\.1:${port}/hmrc/callback\\)`));
      expect(r.stderr).toMatch(/Close the program using port \d+.*--port <another port>/);
      expect(r.stderr).not.toMatch(/EADDRINUSE|at .*\.ts:\d+/);
    } finally {
      holder.close();
    }
  }, 60_000);

  it('reads obligations and liabilities, and submits only with the declaration', async () => {
    expect(await run('hmrc', 'obligations', '--org', 'cmd')).toMatch(/^26A1\s+2026-01-01 to 2026-03-31\s+due 2026-05-07\s+open/m);
    expect(await run('hmrc', 'liabilities', '--from', '2026-01-01', '--to', '2026-03-31', '--org', 'cmd')).toMatch(/HMRC lists no liability\./);
    const refused = await command('tax', 'return', 'submit', '--period-key', '26A1', '--org', 'cmd');
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/confirmDeclaration.*legal declaration/);
    expect(double.posts).toEqual([]);
    expect(await run('tax', 'return', 'submit', '--period-key', '26A1', '--confirm-declaration', '--org', 'cmd')).toMatch(
      /HMRC accepted the VAT return for 26A1 \(2026-01-01 to 2026-03-31\)\.\nProcessing date .*, form bundle \d+, receipt [0-9a-f-]{36} at .*Z, charge reference aCxFaNx0FZsCvyWF, payment BANK\./,
    );
    expect(double.lastHeaders['gov-client-connection-method']).toBe('OTHER_DIRECT');
    expect(await run('tax', 'return', 'list', '--org', 'cmd')).toMatch(/2026-01-01 to 2026-03-31/);
  }, 180_000);
});
