// What a browser test's pages showed when it failed: each page's address, the
// visible text of its <main>, what its fields hold, and its last console
// errors, page errors and failed requests. A vitest setup file;
// launchChromium() registers its browsers.
import { afterEach } from 'vitest';
import type { Browser, Page } from 'playwright-core';

const KEEP = 20;
const browsers = new Set<Browser>();
const events = new WeakMap<Page, string[]>();

function note(page: Page, line: string) {
  const lines = events.get(page) ?? [];
  lines.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
  events.set(page, lines.slice(-KEEP));
}

/** Every page of `browser` keeps its recent troubles, printed if a test fails while it is open. */
export function witness(browser: Browser): Browser {
  browsers.add(browser);
  browser.on('disconnected', () => browsers.delete(browser));
  const watch = (page: Page) => {
    page.on('console', (m) => m.type() === 'error' && note(page, `console: ${m.text()}`));
    page.on('pageerror', (e) => note(page, `page error: ${e.message}`));
    page.on('requestfailed', (r) => note(page, `failed: ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`));
    page.on('response', (r) => r.status() >= 400 && note(page, `${r.status()}: ${r.request().method()} ${r.url()}`));
  };
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    context.on('page', watch); // browser.newPage() comes here too
    return context;
  };
  return browser;
}

async function shown(page: Page): Promise<string> {
  // The screen itself where there is one (not the navigation), else the whole page (a sign-in form).
  const where = (await page.locator('main').count()) > 0 ? page.locator('main').first() : page.locator('body');
  const text = await where.innerText({ timeout: 2000 }).catch((err: Error) => `(unread: ${err.message.split('\n')[0]})`);
  // What the fields hold and the lists have picked (innerText leaves values out): the form a step was filling.
  const fields = await where
    .locator('input:not([type=hidden]):not([type=checkbox]):not([type=file]), textarea, select')
    .evaluateAll((fields) =>
      fields
        .map((f) => {
          const name = f.closest('label')?.firstChild?.textContent?.trim() || f.getAttribute('aria-label') || (f as HTMLInputElement).name;
          const value = f instanceof HTMLSelectElement ? (f.selectedOptions[0]?.text ?? '') : (f as HTMLInputElement).value;
          return `${name}=${JSON.stringify(value)}`;
        })
        .join(' '),
    )
    .catch(() => '');
  return `${text.replace(/\n{2,}/g, '\n').slice(0, 3000)}\n--- fields ---\n${fields || '(none)'}`;
}

afterEach(async (context) => {
  if (context.task.result?.state !== 'fail') return;
  for (const browser of browsers)
    for (const ctx of browser.contexts())
      for (const page of ctx.pages()) {
        if (page.isClosed()) continue;
        const lines = events.get(page) ?? [];
        console.error(`[browser witness] ${page.url()}\n--- shown ---\n${await shown(page)}\n--- troubles ---\n${lines.join('\n') || '(none)'}`);
      }
});
