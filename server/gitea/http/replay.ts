import type { AnswerMemo } from '../../http/answer-memo.js';
import type { Accounts, Authenticated } from '../services/accounts.js';

/** What a kept answer was built from, read before the guards and the handler ran. */
export interface Stamp {
  /** The accounts' generation (users, tokens, repositories, collaborators, organisations). */
  accounts: number;
  /** The repository and its refs' epoch, once the `repo` guard found it. */
  gitDir?: string;
  refs?: number;
}

/** What replaying needs to know whether an answer still holds. */
export interface ReplayDeps {
  memo: AnswerMemo;
  accounts: Pick<Accounts, 'stillCurrent'>;
  /** Changes whenever the account tables may have changed (ReadCache's generation, which also notices other processes' commits). */
  accountsGeneration(): number;
  /** Changes whenever a ref or HEAD of the repository moves (GitStore.refsEpoch). */
  refsEpoch(gitDir: string): number;
}

/**
 * Lets repository reads be sent again from memory (AnswerMemo). The memo
 * keys an answer by its URL and Authorization header, so a replay comes with
 * the very credentials the answer was built for; it holds while no account
 * table changed (so those credentials still name the same user, token and
 * permissions), the credentials need no write (accounts.stillCurrent), and
 * the repository's refs did not move since the request began. A handler
 * offers only answers built from those and from git objects, which never
 * change. Password sessions are not replayed: their check is not a table
 * read (scrypt, with its own cache and throttle).
 */
export function createReplay(d: ReplayDeps) {
  return {
    /** Read as a request begins, before any guard. */
    begin(): Stamp {
      return { accounts: d.accountsGeneration() };
    },

    /** Adds the repository to the stamp, once the guards found it and before the handler reads git. */
    repository(stamp: Stamp, gitDir: string): void {
      stamp.gitDir = gitDir;
      stamp.refs = d.refsEpoch(gitDir);
    },

    /** Offers an answer to the memo unless something it was built from changed while it was built. */
    offer(res: Response, body: Uint8Array, auth: Authenticated | null, stamp: Stamp): Response {
      if (auth && !auth.token) return res;
      const { gitDir, refs, accounts } = stamp;
      const unchanged = () => d.accountsGeneration() === accounts && (gitDir === undefined || d.refsEpoch(gitDir) === refs);
      if (!unchanged()) return res;
      return d.memo.offer(res, {
        body,
        user: auth?.user.name,
        holds: () => unchanged() && (!auth || d.accounts.stillCurrent(auth)),
      });
    },
  };
}

/** Replaying as the binder uses it. */
export type Replay = ReturnType<typeof createReplay>;
