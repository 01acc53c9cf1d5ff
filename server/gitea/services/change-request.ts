import type { FileCommitResponse, PayloadCommitVerification } from '../../../protocol/gitea/index.js';
import type { ModelOf } from '../../../protocol/model.js';
import type { Contents } from './contents.js';

/** What a change does to one file (the contents API's `operation`). */
export type Operation = 'create' | 'update' | 'upload' | 'rename' | 'delete';

/** One file of a change set, its content already decoded. */
export interface ChangeFile {
  operation: Operation;
  path: string;
  fromPath?: string;
  /** Decoded content; undefined for delete (and for a rename that keeps the content). */
  content?: Buffer;
  sha?: string;
}

/** An author or committer as the request names them (the doer's when unset). */
export interface Identity {
  name?: string;
  email?: string;
}

/** A change set to commit as one commit (Gitea's ChangeRepoFilesOptions). */
export interface ChangeRequest {
  files: ChangeFile[];
  message: string;
  branch: string;
  newBranch: string;
  forcePush?: boolean;
  author?: Identity;
  committer?: Identity;
  dates?: { author?: string; committer?: string };
  signoff?: boolean;
  /**
   * The DELETE endpoint's rules (spec): a missing or wrong sha, an invalid
   * name or an existing branch are 400, not 422, and the sha is required.
   */
  deleteEndpoint?: boolean;
}

/** The parts of Gitea's FilesResponse a change answers with. */
export interface ChangeResult {
  files: (Contents | null)[];
  commit: ModelOf<typeof FileCommitResponse>;
  verification: ModelOf<typeof PayloadCommitVerification>;
}
