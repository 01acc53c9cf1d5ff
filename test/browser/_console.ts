import { join } from 'node:path';
import type { Test } from 'uvu';
import * as assert from 'uvu/assert';
import { chromiumPath, TestBrowser, type WatchedPage } from '../_helpers/browser.js';
import { skip } from '../_helpers/skip.js';
import { WAIT_MS } from '../_helpers/wait.js';

// What the console suites share: one chromium per file, a watched page per test, and signing in
// through the form as a person would.

export const ARI = { user: 'asterisk', password: 'asterisk' };
export const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'docs', 'screenshots');
export const updateScreenshots = () => process.env.UPDATE_SCREENSHOTS === '1';

/** One browser per test file, launched by the first test that needs it; `page()` skips the test (undefined) without chromium. */
export function useBrowser(test: Test) {
  let browser: TestBrowser | undefined;
  test.after(async () => {
    await browser?.close();
  });
  return {
    /** Runs `body` on a fresh watched page, then checks the page stayed clean; skips without chromium. */
    async onPage(name: string, body: (w: WatchedPage) => Promise<void>): Promise<void> {
      if (!chromiumPath()) return skip(name, 'chromium');
      browser ??= await TestBrowser.launch(name);
      if (!browser) return;
      const w = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      try {
        await body(w);
        w.assertClean();
      } finally {
        await w.close();
      }
    },
  };
}

/** Fills the sign-in form and submits it (the repository side when `gitea` is given). */
export type GiteaSignIn = { token: string } | { user: string; password: string };

export async function fillSignIn(w: WatchedPage, url: string, ari: { user: string; password: string }, gitea?: GiteaSignIn): Promise<void> {
  const res = await w.page.goto(`${url}/`);
  assert.is(res?.status(), 200);
  await w.page.locator('input[name="ari-user"]').fill(ari.user);
  await w.page.locator('input[name="ari-password"]').fill(ari.password);
  if (gitea && 'token' in gitea) await w.page.locator('input[name="gitea-token"]').fill(gitea.token);
  if (gitea && 'user' in gitea) {
    await w.page.locator('input[name="gitea-user"]').fill(gitea.user);
    await w.page.locator('input[name="gitea-password"]').fill(gitea.password);
  }
  await w.page.locator('#sign-in button[type="submit"]').click();
}

/** Signs in and waits for the console, its tap following `apps` (none: no application registered). */
export async function signIn(w: WatchedPage, url: string, apps: string[], gitea?: GiteaSignIn): Promise<void> {
  await fillSignIn(w, url, ARI, gitea);
  const state = apps.length ? 'open' : 'idle';
  await w.page.locator(`#tap-status[data-state="${state}"]`).waitFor({ timeout: WAIT_MS });
  if (apps.length) assert.is(await w.page.locator('#tap-status').textContent(), `live: ${[...apps].sort().join(', ')}`);
}

/** The channel's row in the live view. */
export const channelRow = (w: WatchedPage, id: string) => w.page.locator(`tr.channel[data-channel="${id}"]`);

/** Waits until the channel's row shows `state`. */
export async function waitForState(w: WatchedPage, id: string, state: string): Promise<void> {
  await w.page.locator(`tr.channel[data-channel="${id}"][data-state="${state}"]`).waitFor({ timeout: WAIT_MS });
}
