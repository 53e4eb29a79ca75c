// npm test on a fresh machine: what the suites need from Debian is installed
// by the run itself where it can (root with apt-get), else the run stops at
// once naming the one command (scripts/test-tools.mjs).
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ensureTestTools, installCommand } from '../scripts/test-tools.mjs';
import { tempDir } from './support/env';

const path = process.env.PATH;
afterEach(() => {
  process.env.PATH = path;
  vi.restoreAllMocks();
});

describe('the tools the tests need', () => {
  it('stops at once naming the one command that installs them all, where it cannot install', () => {
    process.env.PATH = tempDir('ldk-path-');
    vi.spyOn(process, 'getuid').mockReturnValue(1000);
    expect(() => ensureTestTools(() => {})).toThrow(installCommand());
    expect(installCommand()).toBe(
      'sudo apt-get update && sudo apt-get install -y chromium hledger beancount sqlite3 poppler-utils fonts-wqy-microhei postgresql pgbouncer systemd openssl',
    );
  });

  it('installs what is missing with apt-get as root, and checks it is there after', () => {
    const dir = tempDir('ldk-path-');
    const calls = join(dir, 'calls');
    // A stand-in apt-get: records its arguments and "installs" the commands the packages hold.
    writeFileSync(
      join(dir, 'apt-get'),
      `#!/bin/sh\necho "$@" >> ${calls}\n[ "$1" = install ] && for c in hledger bean-check bean-query sqlite3 pdftotext pdftoppm pg_virtualenv pgbouncer systemd-analyze openssl; do printf '#!/bin/sh\\n' > ${dir}/$c; chmod +x ${dir}/$c; done\nexit 0\n`,
    );
    chmodSync(join(dir, 'apt-get'), 0o755);
    process.env.PATH = dir;
    vi.spyOn(process, 'getuid').mockReturnValue(0);
    const installed = ensureTestTools(() => {});
    expect(installed).toEqual(expect.arrayContaining(['hledger', 'beancount', 'sqlite3', 'poppler-utils', 'openssl']));
    expect(readFileSync(calls, 'utf8').trim().split('\n')).toEqual(['update', `install -y ${installed.join(' ')}`]);
  });
});
