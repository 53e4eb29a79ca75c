// Issue 51's sign-in holes, on both engines: parallel guesses counted before
// they are checked (10 checked, then even the right password refused), second-
// factor codes limited per pending session and per person (locked, audited),
// and nothing told of who exists: an unknown address answers, waits and works as
// a known one; an organization one is not in is not found as an unknown one is;
// an owner adding an address someone signs in with invites them and is told what
// a new address tells. (Two processes: test/postgres-servers.test.ts.)
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskPerson } from '../src/main/desk/operation';
import { runDesk } from '../src/main/desk/transport/dispatch';
import { startHeadless, type Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { addMember, personByEmail } from '../src/main/ledger/access/people';
import { SCRYPT_CHANNEL } from '../src/main/ledger/access/passwords';
import { checkTotp, enrollTotp, TOTP_LIMIT } from '../src/main/ledger/access/second-factor';
import { delayFor, LOCK_AFTER, signIn } from '../src/main/ledger/access/sign-in';
import { newTotpSecret, totpCode } from '../src/main/ledger/access/totp';
import { headlessBooks, testBooks } from './support/books';
import { tempDir } from './support/env';

const PASSWORD = 'correct horse battery staple';
let app: Headless;
let books: L.Ledger;
let org: L.Organization;
let other: L.Organization;

const post = (path: string, body: unknown, cookie?: string) =>
  fetch(`${app.server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie: `ldk_desk=${cookie}` } : {}) },
    body: JSON.stringify(body),
  });
const cookieOf = (res: Response) => /ldk_desk=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? '';
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string; details: Record<string, unknown> } }).error;
const audited = async (action: string, where = org) =>
  (await books.rows<{ summary: string }>('SELECT summary FROM audit_log WHERE org_seq = ? AND action = ? ORDER BY seq', where.seq, action)).map((r) => r.summary);

async function person(email: string, where = org, role = 'bookkeeper'): Promise<DeskPerson> {
  await books.forOrg(where.seq, () => addMember(books, where.seq, L.deskActor(), { email, name: email.split('@')[0], role, password: PASSWORD }));
  const row = (await personByEmail(books, email))!;
  return { seq: row.seq, id: row.id, name: row.name, email: row.email, totp: row.totp_secret !== null };
}

/** A person with a second factor enrolled (its enrolment spent the current step's code). */
async function withSecondFactor(email: string, where = org): Promise<{ who: DeskPerson; secret: string }> {
  const who = await person(email, where);
  const secret = newTotpSecret();
  await enrollTotp(books, who.seq, secret, totpCode(secret, Date.now(), -1));
  return { who, secret };
}

async function desk<T = unknown>(who: DeskPerson | null, name: string, input: unknown): Promise<{ data?: T; error?: { code: string; message: string; details: unknown } }> {
  return (await runDesk({ ledger: app.ledger, dataDir: '', agentUrl: app.server.url, mode: 'browser', reviewer: L.deskActor(), person: who }, name, input, () => {})) as never;
}

beforeAll(async () => {
  const data = tempDir('ldk-sign-in-limits-');
  app = await startHeadless(data, { ...headlessBooks(data), port: 0, rendererDir: tempDir(), log: () => {} });
  books = await testBooks(app.ledger, data);
  org = (await L.listOrganizations(books))[0];
  other = await books.forOrg('all', () => L.createOrganization(books, { slug: 'elsewhere', name: 'Elsewhere Ltd' }, L.deskActor()));
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

describe('parallel guesses', () => {
  it('counts 40 concurrent sign-ins at one address before checking them: 10 checked, 30 refused, then the right password is refused too', async () => {
    await person('gus@firm.example');
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => post('/desk/sign-in', { email: 'gus@firm.example', password: `wrong guess number ${i}` })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOCK_AFTER);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - LOCK_AFTER);
    const right = await post('/desk/sign-in', { email: 'gus@firm.example', password: PASSWORD });
    expect([right.status, (await errorOf(right)).details.reason]).toEqual([429, 'locked']);
    expect(await audited('person.locked')).toEqual([expect.stringContaining('gus <gus@firm.example>: 10 failed sign-ins within 15 minutes')]);
  }, 60_000);
});

describe('second-factor codes', () => {
  it('ends a pending sign-in at its 5th wrong code, even with codes sent at once; the right code does not open it after', async () => {
    const { secret } = await withSecondFactor('tia@firm.example');
    const cookie = cookieOf(await post('/desk/sign-in', { email: 'tia@firm.example', password: PASSWORD }));
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post('/desk/totp', { code: String(100000 + i) }, cookie)));
    const reasons = await Promise.all(answers.map(async (a) => [a.status, (await errorOf(a)).details.reason]));
    // Four told "wrong", one that ended it; the rest refused without being checked.
    expect(reasons.filter(([, r]) => r === 'totp')).toHaveLength(4);
    expect(reasons.every(([s, r]) => s === 401 && ['totp', 'totp_ended', 'no_session'].includes(r as string))).toBe(true);
    const right = await post('/desk/totp', { code: totpCode(secret) }, cookie);
    expect(right.status).toBe(401);
  });

  it('locks the person after 10 wrong codes within 15 minutes, however many sign-ins they take, at their address too, audited', async () => {
    const { who, secret } = await withSecondFactor('uma@firm.example');
    for (let round = 0; round < 2; round++) {
      const cookie = cookieOf(await post('/desk/sign-in', { email: who.email, password: PASSWORD }));
      for (let i = 0; i < 5; i++) expect((await post('/desk/totp', { code: '000000' }, cookie)).status).toBe(401);
    }
    const refused = await post('/desk/sign-in', { email: who.email, password: PASSWORD });
    expect([refused.status, (await errorOf(refused)).details.reason]).toEqual([429, 'locked']);
    await expect(checkTotp(books, who.seq, totpCode(secret, Date.now(), 1))).rejects.toMatchObject({ code: 'rate_limited' });
    expect(await audited('person.locked')).toContainEqual(expect.stringContaining(`uma <uma@firm.example>: ${TOTP_LIMIT.limit} wrong second-factor codes`));
    // After the lock, the right code is taken (and the count starts again).
    const later = Date.now() + TOTP_LIMIT.lockMs + 60_000;
    expect(await checkTotp(books, who.seq, totpCode(secret, later), later)).toBe(true);
  });

  it('keeps the secret sealed in the database, bound to its person: moved to another person it opens nothing', async () => {
    const { who, secret } = await withSecondFactor('vic@firm.example');
    const stored = (await books.stmt('SELECT totp_secret FROM users WHERE seq = ?').pluck().get(who.seq)) as string;
    expect(stored).toMatch(/^ldk-sealed:v1:[0-9a-f]{16}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(stored).not.toContain(secret);
    const thief = await withSecondFactor('wes@firm.example');
    await books.stmt('UPDATE users SET totp_secret = ? WHERE seq = ?').run(stored, thief.who.seq);
    await expect(checkTotp(books, thief.who.seq, totpCode(secret, Date.now(), 1))).rejects.toMatchObject({ code: 'conflict', details: { reason: 'secret_key' } });
  });
});

describe('nothing told of who exists', () => {
  it('answers, waits, counts, locks and hashes alike for an unknown address and a known one', async () => {
    await person('kim@firm.example');
    const derived: unknown[] = [];
    const seen = (message: unknown) => derived.push(message);
    await signIn(books, 'warm-up@nowhere.example', 'the stand-in hash is made once').catch(() => undefined);
    subscribe(SCRYPT_CHANNEL, seen);
    try {
      const now = Date.now();
      const trail = async (email: string) => {
        const steps: unknown[] = [];
        for (let i = 0; i <= LOCK_AFTER; i++) {
          derived.length = 0;
          const wait = await delayFor(books, email, now + i);
          const answer = await signIn(books, email, `wrong guess number ${i}`, now + i).catch((e: L.LedgerError) => ({ code: e.code, message: e.message, details: e.details }));
          steps.push({ wait, answer, scrypt: [...derived] });
        }
        return steps;
      };
      const known = await trail('kim@firm.example');
      const unknown = await trail('nobody-here@firm.example');
      expect(unknown).toEqual(known);
      // The same work: one scrypt derivation each (with the same cost), until the lock refuses before any.
      expect(known.map((s) => (s as { scrypt: unknown[] }).scrypt.length)).toEqual([...Array(LOCK_AFTER).fill(1), 0]);
      expect((known.at(-1) as { answer: { code: string } }).answer.code).toBe('rate_limited');
    } finally {
      unsubscribe(SCRYPT_CHANNEL, seen);
    }
  }, 120_000);

  it('answers an organization the person is not in exactly as one that does not exist, naming only what was asked', async () => {
    const outsider = await person('otto@firm.example', other);
    const byId = await desk(outsider, 'dashboard', { orgId: org.id });
    const unknownId = '00000000-0000-4000-8000-000000000000';
    const byUnknownId = await desk(outsider, 'dashboard', { orgId: unknownId });
    expect(byId.error).toEqual({ code: 'not_found', message: `No organization "${org.id}".`, details: { resource: 'organization', id: org.id } });
    expect(byUnknownId.error).toEqual({ code: 'not_found', message: `No organization "${unknownId}".`, details: { resource: 'organization', id: unknownId } });
    const bySlug = await desk(outsider, 'renameOrganization', { organization: org.slug, name: 'Taken' });
    const byUnknownSlug = await desk(outsider, 'renameOrganization', { organization: 'no-such-slug', name: 'Taken' });
    expect(JSON.stringify(bySlug.error).replaceAll(org.slug, '?')).toBe(JSON.stringify(byUnknownSlug.error).replaceAll('no-such-slug', '?'));
    expect(JSON.stringify(bySlug.error)).not.toContain(org.id);
  });

  it('invites a person who already signs in, telling the owner what a new address tells; they join once they accept', async () => {
    const owner = await person('olga@firm.example', org, 'owner');
    const existing = await withSecondFactor('ivy@firm.example', other);
    await books.forOrg(other.seq, () => addMember(books, other.seq, L.deskActor(), { email: 'ivy-too@firm.example', name: 'Ivy Too', role: 'client', password: PASSWORD }));
    const add = (email: string) =>
      desk<{ person: Record<string, unknown>; invitationUrl: string }>(owner, 'addPerson', { orgId: org.id, email, name: 'Typed Name', role: 'client' });
    const fresh = await add('brand-new@firm.example');
    const known = await add('ivy@firm.example');
    const shape = (a: typeof fresh) => ({
      ...a.data!.person,
      id: typeof a.data!.person.id,
      email: '?',
      invitationUrl: a.data!.invitationUrl.replace(/[A-Za-z0-9_-]{43}$/, '<code>'),
    });
    expect(shape(known)).toEqual(shape(fresh));
    expect(known.data!.person).toMatchObject({ name: 'Typed Name', active: false, totp: false, role: 'client' });
    const listed = (await desk<{ people: { email: string; name: string; active: boolean; totp: boolean }[] }>(owner, 'listPeople', { orgId: org.id })).data!.people;
    const pick = (email: string) => listed.find((p) => p.email === email)!;
    expect({ ...pick('ivy@firm.example'), email: '?', id: '?', tokens: [] }).toEqual({ ...pick('brand-new@firm.example'), email: '?', id: '?', tokens: [] });
    expect(await audited('person.added')).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Typed Name <ivy@firm\.example> added as client; invitation link valid 7 days$/)]),
    );

    // Not a member until they accept: signed in, they see it and accept.
    expect((await desk(existing.who, 'dashboard', { orgId: org.id })).error?.code).toBe('not_found');
    const mine = (await desk<{ invitations: { id: string; role: string }[] }>(existing.who, 'whoAmI', {})).data!;
    expect(mine.invitations).toEqual([{ id: org.id, name: org.name, role: 'client' }]);
    expect((await desk(existing.who, 'acceptInvitation', { invitation: org.id })).data).toEqual({ id: org.id, role: 'client' });
    expect((await desk(existing.who, 'dashboard', { orgId: org.id })).error).toBeUndefined();

    // Or through the link, with their own password (never setting another): a wrong one is a failed sign-in.
    const link = (await add('ivy-too@firm.example')).data!.invitationUrl.split('/').at(-1)!;
    const wrong = await post('/desk/invitation', { code: link, password: 'not their password at all' });
    expect([wrong.status, (await errorOf(wrong)).details.reason]).toEqual([401, 'sign_in']);
    const joined = await post('/desk/invitation', { code: link, password: PASSWORD });
    expect(joined.status).toBe(200);
    const ivyToo = (await personByEmail(books, 'ivy-too@firm.example'))!;
    expect(ivyToo.name).toBe('Ivy Too');
    expect(await books.stmt('SELECT role FROM memberships WHERE user_seq = ? AND org_seq = ?').pluck().get(ivyToo.seq, org.seq)).toBe('client');
  });
});
