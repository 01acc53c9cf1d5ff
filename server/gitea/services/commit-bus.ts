import type { RepoContext } from './repos.js';

/** Someone told about a branch that moved to a new commit. */
export type CommitListener = (repo: RepoContext, branch: string, sha: string) => void;

/** The publishing side of the bus: what writers of commits (the contents API, pushes, pull mirrors) are given. */
export interface CommitPublisher {
  publish(repo: RepoContext, branch: string, sha: string): void;
}

/**
 * The one place a commit is fanned out: every commit made through the API,
 * received by a push or fetched by a pull mirror is published here, and the
 * listeners (live events, push mirrors' sync_on_commit, tests) subscribe here,
 * so no writer needs to know who listens.
 */
export class CommitBus implements CommitPublisher {
  readonly #listeners = new Set<CommitListener>();

  /** Subscribes; the returned function unsubscribes. */
  on(listener: CommitListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** Tells every listener, in subscription order. */
  publish(repo: RepoContext, branch: string, sha: string): void {
    for (const l of this.#listeners) l(repo, branch, sha);
  }
}
