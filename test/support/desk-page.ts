// The desk as the browser suites use it, set up once here: a headless server on
// port 0 over a fresh data folder (the run's engine), serving the built screens,
// its books as the test's own set-up and checks use them, and Chromium with a
// page signed in through the server's one-time link.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startHeadless, type Headless, type HeadlessOptions } from '../../src/main/headless';
import * as L from '../../src/main/ledger';
import { headlessBooks, testBooks } from './books';
import { builtRenderer, launchChromium, SCREENSHOTS, signedInPage } from './browser';
import { tempDir } from './env';

const root = join(__dirname, '..', '..');

export interface ServedDesk {
  data: string;
  app: Headless;
  /** The books as the test's set-up and checks use them (support/books.ts testBooks); the server has app.ledger. */
  books: L.Ledger;
  /** The organization a new data folder starts with. */
  org: L.Organization;
}

export interface DeskPage extends ServedDesk {
  browser: Browser;
  page: Page;
  /** Closes the browser, then the server. */
  close(): Promise<void>;
}

/** The server and its books, before any browser. */
export async function serveDesk(prefix: string, options: HeadlessOptions = {}): Promise<ServedDesk> {
  const data = tempDir(prefix);
  const app = await startHeadless(data, { ...headlessBooks(data), port: 0, rendererDir: builtRenderer(root), log: () => {}, ...options });
  const books = await testBooks(app.ledger, data);
  const org = (await L.listOrganizations(books))[0];
  return { data, app, books, org };
}

/** Chromium on a served desk, its page signed in. */
export async function openInBrowser(served: ServedDesk): Promise<DeskPage> {
  const browser = await launchChromium();
  const page = await signedInPage(browser, served.app);
  return {
    ...served,
    browser,
    page,
    close: async () => {
      await browser.close();
      await served.app.stop();
    },
  };
}

/** A served desk and a signed-in page at once. */
export const deskPage = async (prefix: string, options: HeadlessOptions = {}): Promise<DeskPage> => openInBrowser(await serveDesk(prefix, options));

/** A whole-page screenshot into test-results/screenshots (the README's pictures). */
export const screenshot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
