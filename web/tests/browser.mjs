// Headless Chromium (the system's, through playwright-core) with WebGL on
// SwiftShader, and a page of the served viewer whose every request is
// checked: one that leaves localhost is aborted and recorded.
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--ignore-gpu-blocklist',
    ],
  });
}

/** A page at `url` (width x height), with `outside` listing requests that left localhost. */
export async function open(browser, url, { width = 1400, height = 860 } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, acceptDownloads: true });
  const outside = [];
  await context.route('**/*', (route) => {
    const u = new URL(route.request().url());
    if ((u.protocol === 'http:' && (u.hostname === '127.0.0.1' || u.hostname === 'localhost')) || u.protocol === 'blob:' || u.protocol === 'data:') {
      return route.continue();
    }
    outside.push(u.href);
    return route.abort();
  });
  const page = await context.newPage();
  const consoleErrors = [];
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  await page.goto(url);
  return { context, page, outside, consoleErrors };
}
