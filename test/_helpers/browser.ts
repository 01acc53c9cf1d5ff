import { accessSync, constants, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { skip } from './skip.js';
import { WAIT_MS } from './wait.js';

// Browser tests drive Debian's chromium (not a browser build of Playwright's own) through
// playwright-core, headless. Every page is watched: a request that would leave 127.0.0.1 is
// recorded and refused, and console errors and uncaught page errors are recorded; a test ends
// with `assertClean()`, which fails on any of them.

/** Where chromium is: CHROMIUM_PATH, or `chromium` on PATH; undefined when neither is there. */
export function chromiumPath(): string | undefined {
  const runs = (p: string) => {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  const given = process.env.CHROMIUM_PATH;
  if (given) return isAbsolute(given) && runs(given) ? given : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && runs(join(dir, 'chromium'))) return join(dir, 'chromium');
  }
  return undefined;
}

/** Whether a URL stays on this machine's loopback address (data: and blob: URLs never leave the page). */
function local(url: string): boolean {
  const u = new URL(url);
  if (u.protocol === 'data:' || u.protocol === 'blob:' || u.protocol === 'about:') return true;
  return u.hostname === '127.0.0.1';
}

/** Waits until `selector` matches `n` elements in the page (at least `n`, unless `exact`). */
export async function waitForCount(page: Page, selector: string, n: number, exact = false): Promise<void> {
  await page.waitForFunction(
    ([sel, want, eq]) => {
      // Runs in the page; the tests are compiled without the DOM's types.
      const count = (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document.querySelectorAll(sel).length;
      return eq ? count === want : count >= want;
    },
    [selector, n, exact] as const,
    { timeout: WAIT_MS },
  );
}

/**
 * Headless chromium in which names resolve to nothing but the loopback address, whatever a page or
 * chromium itself asks for; or, when it is missing, `SKIP <test> (install chromium)` and undefined.
 * TestBrowser's pages add routing on top; tests of the server's own CORS answers use the browser
 * as it comes (with routing on, Playwright answers preflights itself).
 */
export async function launchChromium(test: string): Promise<Browser | undefined> {
  const executablePath = chromiumPath();
  if (!executablePath) {
    skip(test, 'chromium');
    return undefined;
  }
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** A server on a loopback port of its own that answers every request with the page `html()` gives: a second origin for a test page. */
export async function servePage(html: () => string): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A page under watch: what it asked for, what went wrong in it. */
export interface WatchedPage {
  page: Page;
  /** Every URL the page requested (HTTP and WebSocket), in order. */
  requests: string[];
  /** Requests that would have left 127.0.0.1 (each refused). */
  outside: string[];
  /** Console errors and uncaught exceptions. */
  errors: string[];
  /** Fails when the page asked for anything outside 127.0.0.1 or logged an error. */
  assertClean(): void;
  /** Saves a PNG of the viewport (folders made as needed). */
  screenshot(file: string): Promise<void>;
  close(): Promise<void>;
}

/** One headless chromium for a test file; each page gets a context of its own (no shared cookies or credentials). */
export class TestBrowser {
  private constructor(private readonly browser: Browser) {}

  /**
   * Launches chromium, or prints `SKIP <test> (install chromium)` and returns undefined when
   * it is missing (the test then returns before its first assertion).
   */
  static async launch(test: string): Promise<TestBrowser | undefined> {
    const browser = await launchChromium(test);
    return browser && new TestBrowser(browser);
  }

  /**
   * A new page in a fresh context (`httpCredentials` answers Basic challenges, as a person signing in would).
   * Every request goes through a route (to refuse the outside world), and with a route in place Playwright
   * answers CORS preflights itself: a test of the server's CORS answers drives chromium without one
   * (`test/browser/cors-page.test.ts`).
   */
  async newPage(opts: Pick<BrowserContextOptions, 'httpCredentials' | 'viewport'> = {}): Promise<WatchedPage> {
    const context = await this.browser.newContext({ viewport: { width: 1280, height: 900 }, ...opts });
    const page = await context.newPage();
    const requests: string[] = [];
    const outside: string[] = [];
    const errors: string[] = [];
    // Both the route (which refuses it) and the request event see an outside URL: it is listed once.
    const stray = (url: string) => {
      if (!outside.includes(url)) outside.push(url);
    };
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (local(url)) return route.continue();
      stray(url);
      return route.abort('blockedbyclient');
    });
    page.on('request', (r) => {
      requests.push(r.url());
      if (!local(r.url())) stray(r.url());
    });
    page.on('websocket', (ws) => {
      requests.push(ws.url());
      if (!local(ws.url())) stray(ws.url());
    });
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()} (${m.location().url})`);
    });
    page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    return {
      page,
      requests,
      outside,
      errors,
      assertClean() {
        if (outside.length) throw new Error(`the page made requests outside 127.0.0.1:\n${outside.join('\n')}`);
        if (errors.length) throw new Error(`the page logged errors:\n${errors.join('\n')}`);
      },
      async screenshot(file: string) {
        mkdirSync(dirname(file), { recursive: true });
        await page.screenshot({ path: file });
      },
      close: () => context.close(),
    };
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}
