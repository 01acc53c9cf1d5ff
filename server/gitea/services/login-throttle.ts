import { isIP } from 'node:net';
import { Lru } from '../../util/lru.js';

/** `LOGIN_THROTTLE`: at most `failures` failed password checks per client address in `windowMs` (0: no limit). */
export interface ThrottleSettings {
  failures: number;
  windowMs: number;
}

/** An account refuses unfamiliar addresses after this many times the per-address limit of failures. */
export const ACCOUNT_FACTOR = 5;
/** How long an address that signed in to an account stays familiar to it. */
const FAMILIAR_MS = 30 * 24 * 3600_000;
/** Addresses, accounts and familiar pairs tracked at most (the oldest are forgotten first). */
const TRACKED = 16_384;

/** A password check that was not made: too many failures; try again in `retryAfter` seconds. */
export class Throttled {
  constructor(readonly retryAfter: number) {}
}

interface Window {
  start: number;
  count: number;
}

/**
 * Where failed password checks are counted, so guessing is slow. Gitea has
 * nothing of the kind (its documentation points at fail2ban), so this is
 * ours. The main brake is per client address: after `failures` failures in a
 * window, that address's password checks are refused until the window ends.
 * Per account the brake is softer, so an attacker cannot lock the owner out:
 * after ACCOUNT_FACTOR times as many failures, the account refuses password
 * checks only from addresses that have not signed in to it lately. Tokens are
 * never throttled (160 random bits are not guessed). IPv6 clients are counted
 * by their /64, which one host usually holds whole.
 */
export class LoginThrottle {
  /** Milliseconds since the epoch; a test may replace it to move time on. */
  clock: () => number = Date.now;
  private readonly byAddress = new Lru<string, Window>(TRACKED);
  private readonly byAccount = new Lru<string, Window>(TRACKED);
  private readonly familiar = new Lru<string, number>(TRACKED);

  constructor(private readonly settings: ThrottleSettings) {}

  /** 0 when a password check for `account` from `address` may run, else the seconds to wait. */
  check(account: string, address: string): number {
    const { failures, windowMs } = this.settings;
    if (!failures) return 0;
    const now = this.clock();
    const addr = this.live(this.byAddress, addressKey(address), now);
    if (addr && addr.count >= failures) return waitOf(addr, windowMs, now);
    const acct = this.live(this.byAccount, account.toLowerCase(), now);
    if (acct && acct.count >= failures * ACCOUNT_FACTOR && !this.isFamiliar(account, address, now)) return waitOf(acct, windowMs, now);
    return 0;
  }

  /** A password check failed (unknown user, wrong password, or an account that may not sign in). */
  failed(account: string, address: string): void {
    if (!this.settings.failures) return;
    const now = this.clock();
    this.bump(this.byAddress, addressKey(address), now);
    this.bump(this.byAccount, account.toLowerCase(), now);
  }

  /** A password check succeeded: the address becomes familiar to the account. Counters are not reset (an attacker could reset them with an account of their own). */
  succeeded(account: string, address: string): void {
    if (!this.settings.failures) return;
    this.familiar.set(pairKey(account, address), this.clock() + FAMILIAR_MS);
  }

  private isFamiliar(account: string, address: string, now: number): boolean {
    return (this.familiar.get(pairKey(account, address)) ?? 0) > now;
  }

  private live(map: Lru<string, Window>, key: string, now: number): Window | undefined {
    const w = map.get(key);
    return w && now - w.start < this.settings.windowMs ? w : undefined;
  }

  private bump(map: Lru<string, Window>, key: string, now: number): void {
    const w = this.live(map, key, now);
    map.set(key, w ? { start: w.start, count: w.count + 1 } : { start: now, count: 1 });
  }
}

const waitOf = (w: Window, windowMs: number, now: number) => Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
const pairKey = (account: string, address: string) => `${account.toLowerCase()}\n${addressKey(address)}`;

/** The unit an address is counted in: an IPv4 address (also IPv4-mapped IPv6) as is, an IPv6 address by its /64. */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  const bare = address.split('%')[0]!.toLowerCase();
  const [head = '', tail] = bare.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((x) => Number.parseInt(x || '0', 16).toString(16))
    .join(':')}::/64`;
}
