// Debian's Chromium for the browser suites: CHROMIUM_PATH or /usr/bin/chromium.
// Missing Chromium fails loudly with how to get it (a skip would hide a break in CI).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { witness } from './browser-witness';

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

export async function launchChromium(): Promise<Browser> {
  return witness(await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-dev-shm-usage'] }));
}

/**
 * A page of the desk signed in with the server's one-time link, at the size the screenshots use; a step that
 * hangs fails with its locator after 20 s, before the test's own timeout.
 */
export async function signedInPage(browser: Browser, app: { signInUrl: string; server: { url: string } }): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(20_000);
  await page.goto(app.signInUrl);
  await page.waitForURL(`${app.server.url}/`);
  return page;
}

/** The screens test/global-setup.ts built (as `npm install` does), for the headless server to serve. */
export function builtRenderer(root: string): string {
  const dir = join(root, 'out', 'renderer');
  if (!existsSync(join(dir, 'index.html'))) throw new Error('out/renderer is missing: test/global-setup.ts should have built it (npm run build).');
  return dir;
}

export const SCREENSHOTS = join(__dirname, '..', '..', 'test-results', 'screenshots');
mkdirSync(SCREENSHOTS, { recursive: true });
