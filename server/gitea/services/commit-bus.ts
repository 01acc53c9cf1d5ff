import type { RepoContext } from './repos.js';

/** Someone told about a branch that moved to a new commit. */
export type CommitListener = (repo: RepoContext, branch: string, sha: string) => void;

/** Someone told about a tag that was made, moved or removed (`sha` all zeros). */
export type TagListener = (repo: RepoContext, tag: string, sha: string) => void;

/** The publishing side of the bus: what writers of commits and tags (the contents and tags APIs, pushes, pull mirrors) are given. */
export interface CommitPublisher {
  publish(repo: RepoContext, branch: string, sha: string): void;
  /** A tag now names `sha` (the tagged commit), or is gone when `sha` is all zeros. */
  publishTag(repo: RepoContext, tag: string, sha: string): void;
}

/**
 * The one place a commit or a tag change is fanned out: every commit made
 * through the API, received by a push or fetched by a pull mirror is published
 * here, and so is every tag made or removed those ways. The listeners (live
 * events, releases following their tags, push mirrors' sync_on_commit, tests)
 * subscribe here, so no writer needs to know who listens. Listeners run in
 * subscription order: one that records state subscribes before one that
 * announces it.
 */
export class CommitBus implements CommitPublisher {
  readonly #listeners = new Set<CommitListener>();
  readonly #tagListeners = new Set<TagListener>();

  /** Subscribes to commits; the returned function unsubscribes. */
  on(listener: CommitListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** Subscribes to tag changes; the returned function unsubscribes. */
  onTag(listener: TagListener): () => void {
    this.#tagListeners.add(listener);
    return () => void this.#tagListeners.delete(listener);
  }

  /** Tells every commit listener, in subscription order. */
  publish(repo: RepoContext, branch: string, sha: string): void {
    for (const l of this.#listeners) l(repo, branch, sha);
  }

  /** Tells every tag listener, in subscription order. */
  publishTag(repo: RepoContext, tag: string, sha: string): void {
    for (const l of this.#tagListeners) l(repo, tag, sha);
  }
}
