import { isIP } from 'node:net';
import type { Logger } from '../../log.js';
import { GitError, runGit, type RunResult } from '../git/run.js';
import { describeGitFailure } from './git-failure.js';
import { CREDENTIAL_ENV, installMirrorGitHelpers, PROXY_ENV } from './git-helpers.js';
import { warnAddressRefused } from './policy-warning.js';
import { maskCredentials, resolveMirrorTarget, type AddressKind, type MirrorTarget, type MirrorUrlPolicy } from './url-policy.js';

/** A failure of a mirror's git network operation; the message is ours alone (safe to store, return and log). */
export class RemoteGitError extends Error {
  constructor(
    message: string,
    /** Stopped by a shutdown rather than failed: nothing should be recorded, the job runs again later. */
    readonly interrupted = false,
  ) {
    super(message);
    this.name = 'RemoteGitError';
  }
}

/** Time and speed limits of git against a remote. */
export interface RemoteGitLimits {
  /** Hard limit of one operation (MIRROR_TIMEOUT): git and its helpers are killed then. */
  timeoutMs: number;
  /** Below this many bytes a second for lowSpeedTimeS seconds, an HTTP transfer is given up (MIRROR_LOW_SPEED_LIMIT). */
  lowSpeedLimit: number;
  /** MIRROR_LOW_SPEED_TIME, whole seconds; also ssh's connect timeout and keep-alive window. */
  lowSpeedTimeS: number;
}

/** What running git against remotes needs. */
export interface RemoteGitDeps {
  dataDir: string;
  policy: MirrorUrlPolicy;
  limits: RemoteGitLimits;
  log: Logger;
  /** DNS for the policy (tests inject one); git connects to what it answered. */
  resolve?: (host: string) => Promise<string[]>;
}

/** One git command against a remote: where, as whom, and how to stop it. */
export interface RemoteGitRun {
  gitDir: string;
  /** The credential-free address the remote holds (as stored in the mirror's row). */
  address: string;
  kind: AddressKind;
  username?: string;
  password?: string;
  /** Private key file of an ssh mirror (0600, removed by the caller). */
  sshKeyFile?: string;
  knownHostsFile?: string;
  signal?: AbortSignal;
}

const TIMEOUT = 'timeout';
const INTERRUPT = 'interrupt';
/** Values a credential line cannot carry (they would end or break the helper's answer). */
const UNSENDABLE = /[\r\n\0]/;
const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Every git network operation of mirrors and migrations goes through here:
 *
 * - the stored address passes the address policy again, now, and git
 *   connects only to the addresses that check approved (curl's resolve list
 *   for http and https, a proxy for git://, ssh's HostName for ssh);
 * - redirects are not followed (a remote cannot send git elsewhere), and
 *   only the protocol of the address is allowed;
 * - credentials go to the mirror's own protocol and host only, through the
 *   credential helper;
 * - an HTTP transfer slower than the low-speed limit is given up, ssh gets
 *   connect and keep-alive timeouts, and every operation has a hard limit
 *   after which git's whole process group is killed;
 * - a failure is described in our words (git-failure.ts); git's own output,
 *   which can carry the remote's text, is logged at debug only, masked.
 */
export function createRemoteGit(deps: RemoteGitDeps) {
  const helpers = installMirrorGitHelpers(deps.dataDir);
  const { limits } = deps;
  const running = new Set<AbortController>();
  const waiters = new Set<() => void>();
  let closed = false;

  function settle(ctrl: AbortController): void {
    running.delete(ctrl);
    if (running.size === 0) for (const w of [...waiters]) w();
  }

  /** `-c` options and environment for one operation against `target`. */
  function setup(opts: RemoteGitRun, target: MirrorTarget | undefined): { config: string[]; env: Record<string, string> } {
    const scheme = target?.scheme ?? 'file';
    const config = [
      // No helper but ours: nothing stores what it hands over, nothing else answers.
      'credential.helper=',
      `credential.helper=!${shq(helpers.credentialHelper)}`,
      'http.followRedirects=false',
      `http.lowSpeedLimit=${limits.lowSpeedLimit}`,
      `http.lowSpeedTime=${limits.lowSpeedTimeS}`,
    ];
    // Only the address's own transport (git also reads this for any URL a remote hands it).
    const env: Record<string, string> = { GIT_ALLOW_PROTOCOL: scheme };
    if (!target) return { config, env };
    const pinned = target.addresses;
    if ((scheme === 'http' || scheme === 'https') && pinned) {
      const list = pinned.map((a) => (isIP(a) === 6 ? `[${a}]` : a)).join(',');
      for (const host of new Set([target.host, target.host.replace(/\.$/, '')])) config.push(`http.curloptResolve=${host}:${target.port}:${list}`);
    }
    if (scheme === 'git' && pinned) {
      Object.assign(env, { GIT_PROXY_COMMAND: helpers.gitProxy, [PROXY_ENV.node]: process.execPath, [PROXY_ENV.host]: target.host, [PROXY_ENV.addresses]: pinned.join(',') });
    }
    if (scheme === 'ssh') {
      const alive = Math.max(1, Math.ceil(limits.lowSpeedTimeS / 3));
      const ssh = ['ssh', '-o', 'BatchMode=yes', '-o', `ConnectTimeout=${limits.lowSpeedTimeS}`, '-o', `ServerAliveInterval=${alive}`, '-o', 'ServerAliveCountMax=3'];
      // Connect to the approved address, and keep the host key filed under the name (and port) as before.
      const alias = target.port === 22 ? target.host : `[${target.host}]:${target.port}`;
      if (pinned) ssh.push('-o', `HostKeyAlias=${shq(alias)}`, '-o', `HostName=${shq(pinned[0]!)}`, '-o', 'CheckHostIP=no');
      if (opts.sshKeyFile) ssh.push('-i', shq(opts.sshKeyFile), '-o', 'IdentitiesOnly=yes', '-o', 'StrictHostKeyChecking=accept-new');
      if (opts.knownHostsFile) ssh.push('-o', `UserKnownHostsFile=${shq(opts.knownHostsFile)}`);
      env.GIT_SSH_COMMAND = ssh.join(' ');
    }
    const username = opts.username ?? '';
    const password = opts.password ?? '';
    const host = hostAsGitNamesIt(opts.address);
    if ((scheme === 'http' || scheme === 'https') && host && (username || password) && !UNSENDABLE.test(username + password)) {
      Object.assign(env, {
        [CREDENTIAL_ENV.protocol]: scheme,
        [CREDENTIAL_ENV.host]: host,
        [CREDENTIAL_ENV.username]: username,
        [CREDENTIAL_ENV.password]: password,
      });
    }
    return { config, env };
  }

  return {
    /**
     * Runs `git <args>` (a fetch, push or ls-remote naming the remote) for a
     * mirror; rejects with a RemoteGitError in our words.
     */
    async run(args: string[], opts: RemoteGitRun): Promise<RunResult> {
      if (closed || opts.signal?.aborted) throw new RemoteGitError('interrupted by shutdown', true);
      const ctrl = new AbortController();
      running.add(ctrl);
      const onAbort = () => ctrl.abort(INTERRUPT);
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(() => ctrl.abort(TIMEOUT), limits.timeoutMs);
      timer.unref();
      try {
        const checked = await resolveMirrorTarget(opts.address, opts.kind, deps.policy, deps.resolve);
        if (!checked.ok && checked.reason === 'refused') warnAddressRefused(deps.log, { kind: opts.kind, address: opts.address }, checked.setting);
        if (!checked.ok) throw new RemoteGitError(checked.reason === 'unresolved' ? 'could not resolve the host' : 'refused by the mirror address policy');
        if (ctrl.signal.aborted) throw new GitError(args, null, '');
        const { config, env } = setup(opts, checked.target);
        return await runGit([...config.flatMap((c) => ['-c', c]), ...args], { gitDir: opts.gitDir, env, signal: ctrl.signal });
      } catch (err) {
        if (err instanceof RemoteGitError) throw err;
        if (ctrl.signal.reason === INTERRUPT) throw new RemoteGitError('interrupted by shutdown', true);
        if (ctrl.signal.reason === TIMEOUT) throw new RemoteGitError('timed out');
        const stderr = err instanceof GitError ? err.stderr : String((err as Error)?.message ?? err);
        const secrets = [opts.password ?? '', (opts.username ?? '').length >= 3 ? opts.username! : ''].filter(Boolean);
        deps.log.debug({ git: args[0], detail: maskCredentials(stderr.slice(-2000), secrets) }, 'mirror git operation failed');
        throw new RemoteGitError(describeGitFailure(args[0] ?? 'git', stderr));
      } finally {
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        settle(ctrl);
      }
    },

    /** Kills every running operation (they fail as interrupted) and refuses new ones: shutdown. */
    close(): void {
      closed = true;
      for (const ctrl of running) ctrl.abort(INTERRUPT);
    },

    /** Resolves once no operation is running. */
    idle(): Promise<void> {
      if (running.size === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const done = () => {
          waiters.delete(done);
          resolve();
        };
        waiters.add(done);
      });
    },

    get running(): number {
      return running.size;
    },
  };
}

/**
 * The `host` git's credential request carries for an http(s) address: the
 * authority as written, without userinfo, percent-decoded, lower case here
 * (the helper lowers what git sends too).
 */
export function hostAsGitNamesIt(address: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(address);
  if (!m) return undefined;
  const authority = m[1]!.slice(m[1]!.lastIndexOf('@') + 1);
  try {
    return decodeURIComponent(authority).toLowerCase();
  } catch {
    return undefined;
  }
}

/** The remote git runner's interface. */
export type RemoteGit = ReturnType<typeof createRemoteGit>;
