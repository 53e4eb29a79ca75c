// Debian's Chromium for the browser suites: CHROMIUM_PATH or /usr/bin/chromium.
// Missing Chromium fails loudly with how to get it (a skip would hide a break in CI).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => Boolean(p));
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    throw new Error(
      `No Chromium found (looked at ${candidates.join(', ')}). Install it with "sudo apt-get install -y chromium" ` +
        '(Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome binary.',
    );
  }
  return found;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** Builds the renderer (electron-vite) so the headless server has screens to serve. */
export function buildRenderer(root: string): string {
  const result = spawnSync(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`electron-vite build failed:\n${result.stdout}\n${result.stderr}`);
  return join(root, 'out', 'renderer');
}

export const SCREENSHOTS = join(__dirname, '..', '..', 'test-results', 'screenshots');
mkdirSync(SCREENSHOTS, { recursive: true });
