// Signing in over HTTP (issue 45), on both engines: email and password answer a
// new session cookie (HttpOnly, SameSite=Strict) or the same 401 for an unknown
// address and a wrong password; failures slow the next try and lock the account;
// a session id planted before sign-in is never the one signed in; a cross-site
// form post opens nothing; invitation links work once and expire; a second
// factor when enrolled; sign out everywhere; a person removed is signed out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHeadless, type Headless } from '../src/main/headless';
import * as L from '../src/main/ledger';
import { addMember, issueInvitation, personByEmail, removeMember } from '../src/main/ledger/access/people';
import { requireTotp } from '../src/main/ledger/access/second-factor';
import { delayFor, LOCK_AFTER, signIn } from '../src/main/ledger/access/sign-in';
import { totpCode, verifyTotp } from '../src/main/ledger/access/totp';
import { headlessBooks, testBooks } from './support/books';
import { tempDir } from './support/env';

const PASSWORD = 'correct horse battery staple';
let app: Headless;
let books: L.Ledger;
let org: L.Organization;

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${app.server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), redirect: 'manual' });
const cookieOf = (res: Response) => /ldk_desk=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? '';
const desk = (cookie: string, name: string, input: unknown = {}) => post(`/desk/api/${name}`, input, { cookie: `ldk_desk=${cookie}` });
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string; details: Record<string, unknown> } }).error;

async function person(email: string, role: 'owner' | 'bookkeeper' | 'client', password: string | null = PASSWORD) {
  const added = await books.forOrg(org.seq, () => addMember(books, org.seq, L.deskActor(), { email, name: email.split('@')[0], role, password: password ?? undefined }));
  return { ...added, row: (await personByEmail(books, email))! };
}
const signedIn = async (email: string, password = PASSWORD) => {
  const res = await post('/desk/sign-in', { email, password });
  expect(res.status).toBe(200);
  return cookieOf(res);
};

beforeAll(async () => {
  const data = tempDir('ldk-people-http-');
  app = await startHeadless(data, { ...headlessBooks(data), port: 0, rendererDir: tempDir(), log: () => {} });
  books = await testBooks(app.ledger, data);
  org = (await L.listOrganizations(books))[0];
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

describe('sign-in', () => {
  it('answers a new HttpOnly, SameSite=Strict session for the right password, and one same 401 for a wrong one and an unknown address', async () => {
    await person('ann@firm.example', 'bookkeeper');
    const ok = await post('/desk/sign-in', { email: 'Ann@Firm.example ', password: PASSWORD });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ data: { name: 'ann', email: 'ann@firm.example', totpDue: false } });
    expect(ok.headers.get('set-cookie')).toMatch(/^ldk_desk=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    const who = await desk(cookieOf(ok), 'whoAmI');
    expect(((await who.json()) as { data: { organizations: unknown[] } }).data.organizations).toEqual([{ id: org.id, name: org.name, role: 'bookkeeper' }]);

    const wrong = await post('/desk/sign-in', { email: 'ann@firm.example', password: 'not the password at all' });
    const unknown = await post('/desk/sign-in', { email: 'nobody@firm.example', password: 'not the password at all' });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(await errorOf(wrong)).toEqual(await errorOf(unknown));
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('slows each try after a failure and locks the account after 10 within 15 minutes, audited; the right password then waits too', async () => {
    const { row } = await person('bob@firm.example', 'bookkeeper');
    const now = Date.now();
    expect(await delayFor(books, row.email, now)).toBe(0);
    for (let i = 0; i < LOCK_AFTER; i++) await expect(signIn(books, row.email, `wrong guess number ${i}`, now + i)).rejects.toMatchObject({ code: 'unauthorized' });
    expect(await delayFor(books, row.email, now + LOCK_AFTER)).toBe(5000);
    await expect(signIn(books, row.email, PASSWORD, now + LOCK_AFTER)).rejects.toMatchObject({ code: 'rate_limited' });
    const res = await post('/desk/sign-in', { email: row.email, password: PASSWORD });
    expect([res.status, (await errorOf(res)).details.reason]).toEqual([429, 'locked']);
    const locked = await books.rows("SELECT summary FROM audit_log WHERE org_seq = ? AND action = 'person.locked'", org.seq);
    expect(locked).toHaveLength(1);
    // After the lock, the right password signs in (and clears the count).
    expect((await signIn(books, row.email, PASSWORD, now + 31 * 60_000)).person.email).toBe(row.email);
  }, 90_000);
});

describe('sessions', () => {
  it('never signs in a session id planted before (fixation): the one set is new, the planted one opens nothing', async () => {
    await person('cat@firm.example', 'bookkeeper');
    const planted = 'x'.repeat(43);
    const res = await post('/desk/sign-in', { email: 'cat@firm.example', password: PASSWORD }, { cookie: `ldk_desk=${planted}` });
    expect(cookieOf(res)).not.toBe(planted);
    expect((await desk(planted, 'whoAmI')).status).toBe(401);
    // And an earlier real session of the same browser ends at the next sign-in.
    const first = cookieOf(res);
    const second = cookieOf(await post('/desk/sign-in', { email: 'cat@firm.example', password: PASSWORD }, { cookie: `ldk_desk=${first}` }));
    expect([(await desk(first, 'whoAmI')).status, (await desk(second, 'whoAmI')).status]).toEqual([401, 200]);
  });

  it('refuses a cross-site form post, with or without the cookie a browser would not send', async () => {
    const cookie = await signedIn('cat@firm.example');
    const form = (headers: Record<string, string>) =>
      fetch(`${app.server.url}/desk/api/createToken`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `ldk_desk=${cookie}`, ...headers },
        body: `orgId=${org.id}&name=csrf&scopes=read`,
      });
    const crossSite = await form({ origin: 'https://evil.example' });
    expect([crossSite.status, (await errorOf(crossSite)).code]).toEqual([403, 'forbidden_origin']);
    const noOrigin = await form({});
    expect([noOrigin.status, (await errorOf(noOrigin)).code]).toEqual([415, 'unsupported_media_type']);
    const signInForm = await fetch(`${app.server.url}/desk/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a&password=b',
    });
    expect(signInForm.status).toBe(415);
    expect(await books.stmt("SELECT count(*) FROM tokens WHERE name = 'csrf'").pluck().get()).toBe(0);
  });

  it('ends every session of the person with "sign out everywhere", and a removed person\'s at once', async () => {
    await person('dan@firm.example', 'bookkeeper');
    const [a, b] = [await signedIn('dan@firm.example'), await signedIn('dan@firm.example')];
    const out = await post('/desk/api/sign-out-everywhere', {}, { cookie: `ldk_desk=${a}` });
    expect(await out.json()).toEqual({ data: { ended: 2 } });
    expect([(await desk(a, 'whoAmI')).status, (await desk(b, 'whoAmI')).status]).toEqual([401, 401]);

    const c = await signedIn('dan@firm.example');
    expect((await desk(c, 'dashboard', { orgId: org.id })).status).toBe(200);
    await books.forOrg(org.seq, () => removeMember(books, org.seq, L.deskActor(), 'dan@firm.example'));
    const after = await desk(c, 'dashboard', { orgId: org.id });
    expect([after.status, (await errorOf(after)).details.reason]).toEqual([401, 'no_session']);
  });
});

describe('invitations and the second factor', () => {
  it('sets the password once from an invitation link, refuses a weak one, and refuses a used or expired link', async () => {
    const { invitation } = await person('eve@firm.example', 'client', null);
    expect(invitation).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Its page names the address and the books it opens, and spends nothing.
    const about = await post('/desk/invitation/about', { code: invitation });
    expect([about.status, ((await about.json()) as { data: unknown }).data]).toEqual([
      200,
      { email: 'eve@firm.example', known: false, organizations: [{ name: org.name, role: 'client' }] },
    ]);
    expect((await post('/desk/invitation/about', { code: 'x'.repeat(43) })).status).toBe(401);
    const weak = await post('/desk/invitation', { code: invitation, password: 'password1234' });
    expect([weak.status, (await errorOf(weak)).code]).toEqual([400, 'validation_failed']);
    const set = await post('/desk/invitation', { code: invitation, password: PASSWORD });
    expect(set.status).toBe(200);
    expect((await desk(cookieOf(set), 'whoAmI')).status).toBe(200);
    const again = await post('/desk/invitation', { code: invitation, password: `${PASSWORD} again` });
    expect([again.status, (await errorOf(again)).details.reason]).toEqual([401, 'invitation']);
    // A link older than 7 days no longer works.
    const row = (await personByEmail(books, 'eve@firm.example'))!;
    const old = await books.write(() => issueInvitation(books, row.seq, Date.now() - 8 * 86_400_000));
    const expired = await post('/desk/invitation', { code: old, password: `${PASSWORD} anew` });
    expect(expired.status).toBe(401);
  });

  it('asks for the second factor after the password once enrolled, and an organization can require one', async () => {
    await person('fay@firm.example', 'bookkeeper');
    let cookie = await signedIn('fay@firm.example');
    const { secret, uri, qr } = ((await (await desk(cookie, 'newSecondFactor')).json()) as { data: { secret: string; uri: string; qr: string } }).data;
    expect(uri).toMatch(new RegExp(`^otpauth://totp/Ledgerdesk:.*\\?secret=${secret}&`));
    // The address as a QR code: an SVG image of dark modules (a version-5 or larger code for an address this long).
    const svg = Buffer.from(qr.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString('utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) \1"/);
    expect(Number(/viewBox="0 0 (\d+)/.exec(svg)![1])).toBeGreaterThanOrEqual(37 + 4);
    // Codes are of the enrolment's step, not of whatever step the clock reaches while the test runs (a 30 s step
    // may roll over mid-test): its own code stays spent, and the next step's is taken either way.
    const enrolledAt = Date.now();
    const confirm = await desk(cookie, 'confirmSecondFactor', { secret, code: totpCode(secret, enrolledAt) });
    expect(confirm.status).toBe(200);
    const res = await post('/desk/sign-in', { email: 'fay@firm.example', password: PASSWORD });
    expect(((await res.json()) as { data: { totpDue: boolean } }).data.totpDue).toBe(true);
    cookie = cookieOf(res);
    const due = await desk(cookie, 'whoAmI');
    expect([due.status, (await errorOf(due)).details.reason]).toEqual([401, 'totp_due']);
    expect((await post('/desk/totp', { code: '000000' }, { cookie: `ldk_desk=${cookie}` })).status).toBe(401);
    // The enrolment's own code is spent: the next step's (one step of drift) is taken, once.
    expect((await post('/desk/totp', { code: totpCode(secret, enrolledAt) }, { cookie: `ldk_desk=${cookie}` })).status).toBe(401);
    const next = totpCode(secret, enrolledAt, 1);
    expect((await post('/desk/totp', { code: next }, { cookie: `ldk_desk=${cookie}` })).status).toBe(200);
    expect((await desk(cookie, 'whoAmI')).status).toBe(200);
    const again = cookieOf(await post('/desk/sign-in', { email: 'fay@firm.example', password: PASSWORD }));
    expect((await post('/desk/totp', { code: next }, { cookie: `ldk_desk=${again}` })).status).toBe(401);

    // Required by the organization: someone without one is refused its books until they set one up.
    await books.forOrg(org.seq, () => requireTotp(books, org.seq, L.deskActor(), true));
    const without = await signedIn('ann@firm.example');
    const refused = await desk(without, 'dashboard', { orgId: org.id });
    expect([refused.status, (await errorOf(refused)).details.reason]).toEqual([403, 'second_factor_required']);
    expect((await desk(cookie, 'dashboard', { orgId: org.id })).status).toBe(200);
    await books.forOrg(org.seq, () => requireTotp(books, org.seq, L.deskActor(), false));
  });

  it('computes the codes of RFC 6238 (SHA-1, 6 digits)', () => {
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'; // "12345678901234567890"
    expect([59, 1111111109, 1234567890, 2000000000].map((t) => totpCode(secret, t * 1000))).toEqual(['287082', '081804', '005924', '279037']);
    expect(verifyTotp(secret, '287082', 59_000 + 30_000)).toBe(true); // one step of drift
    expect(verifyTotp(secret, '287082', 59_000 + 90_000)).toBe(false);
  });
});
