// What the tests need from the machine (Debian packages), checked once before
// the suites: installed with apt-get where the run can (root on Debian, as CI
// is), else the run stops at once naming the one command that installs them
// all. Never a skip: a suite that cannot run its real tool fails.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const onPath = (command) => (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
const postgresBin = () => {
  const root = '/usr/lib/postgresql';
  return existsSync(root) && readdirSync(root).some((v) => existsSync(join(root, v, 'bin', 'initdb')));
};

/** Each Debian package the tests use, and how to tell it is there. */
export const TEST_PACKAGES = [
  { pkg: 'chromium', why: 'the screens in a browser', present: () => Boolean(process.env.CHROMIUM_PATH) || existsSync('/usr/bin/chromium') },
  { pkg: 'hledger', why: 'exports read back by hledger', present: () => onPath('hledger') },
  { pkg: 'beancount', why: 'exports read back by bean-check and bean-query', present: () => onPath('bean-check') && onPath('bean-query') },
  { pkg: 'sqlite3', why: 'backups and the audit chain checked by the sqlite3 shell', present: () => onPath('sqlite3') },
  { pkg: 'poppler-utils', why: 'invoice PDFs read back by pdftotext and pdftoppm', present: () => onPath('pdftotext') && onPath('pdftoppm') },
  {
    pkg: 'fonts-wqy-microhei',
    why: 'Chinese, Japanese and Korean text on invoices',
    present: () => Boolean(process.env.LEDGERDESK_CJK_FONT) || existsSync('/usr/share/fonts/truetype/wqy/wqy-microhei.ttc'),
  },
  { pkg: 'postgresql', why: 'the suites on a throwaway PostgreSQL', present: () => postgresBin() && onPath('pg_virtualenv') },
  { pkg: 'pgbouncer', why: 'the server behind a transaction pooler', present: () => existsSync('/usr/sbin/pgbouncer') || onPath('pgbouncer') },
  { pkg: 'systemd', why: 'the service unit read by systemd-analyze', present: () => onPath('systemd-analyze') },
  { pkg: 'openssl', why: "a test certificate for the server's own TLS", present: () => onPath('openssl') },
];

export const installCommand = (pkgs = TEST_PACKAGES.map((p) => p.pkg)) => `sudo apt-get update && sudo apt-get install -y ${pkgs.join(' ')}`;

/** Installs what is missing where it can; throws naming the one command otherwise. */
export function ensureTestTools(log = (line) => process.stderr.write(`${line}\n`)) {
  const missing = TEST_PACKAGES.filter((p) => !p.present());
  if (missing.length === 0) return [];
  const names = missing.map((p) => p.pkg);
  const canInstall = process.getuid?.() === 0 && onPath('apt-get');
  if (!canInstall) {
    throw new Error(
      `The tests need Debian packages this machine lacks (${missing.map((p) => `${p.pkg}: ${p.why}`).join('; ')}). ` +
        `Install them all with:\n  ${installCommand()}\nthen run npm test again.`,
    );
  }
  log(`Installing what the tests need: ${names.join(' ')} (apt-get, once)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', ...names]]) {
    const run = spawnSync('apt-get', args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (run.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (${run.status}):\n${run.stderr.slice(-2000)}\nInstall them by hand: ${installCommand()}`);
  }
  const still = TEST_PACKAGES.filter((p) => !p.present());
  if (still.length > 0) throw new Error(`Installed, but still missing: ${still.map((p) => p.pkg).join(' ')}. Install by hand: ${installCommand()}`);
  return names;
}

// `node scripts/test-tools.mjs`: the same check on its own.
if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const installed = ensureTestTools();
    console.log(installed.length ? `Installed: ${installed.join(' ')}` : 'Everything the tests need is here.');
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
