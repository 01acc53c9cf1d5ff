import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTrunkline } from 'trunkline';
import { startIvrApp } from './start-app.mjs';

/**
 * A test file's setup: a Trunkline of its own (virtual clock) and the IVR started against it,
 * stopped after the file's last test, which must find it exiting 0 on SIGTERM with nothing on
 * its stderr (every request it made succeeded, or lost a race with a hangup it expected).
 * The returned object gets `pbx` and `ivr` once the `before` hook has run.
 */
export function useIvr(options = {}) {
  const ctx = { pbx: undefined, ivr: undefined };
  before(async () => {
    ctx.pbx = await startTrunkline();
    ctx.ivr = await startIvrApp(ctx.pbx, options);
  });
  after(async () => {
    try {
      if (ctx.ivr) {
        assert.deepEqual(await ctx.ivr.stop(), { code: 0, signal: null });
        assert.equal(ctx.ivr.errors(), '');
      }
    } finally {
      await ctx.pbx?.close();
    }
  });
  return ctx;
}
