import * as v from 'valibot';
import { GO_TIME } from './schema.js';

/**
 * Events of the repository event stream, `GET /api/v1/events` (WebSocket,
 * token auth): one JSON text frame per event, for repositories the caller
 * can read. Gitea has no such stream; the shapes are ours, in Gitea's
 * vocabulary (times as Go renders them, repositories as `full_name` + id).
 */
const base = {
  /** When it happened (RFC 3339, as Gitea renders times). */
  timestamp: v.pipe(v.string(), v.regex(GO_TIME)),
  repository: v.strictObject({ id: v.pipe(v.number(), v.integer()), full_name: v.string(), private: v.boolean() }),
};

const mirror = v.strictObject({
  kind: v.picklist(['push', 'pull']),
  /** `remote_mirror_…` for push mirrors, `origin` for a pull mirror. */
  remote_name: v.string(),
  /** Without credentials. */
  remote_address: v.string(),
});

/** A branch moved: a commit through the API, a branch created or deleted through the API (deleted: `sha` is all zeros), a push, or a pull-mirror fetch. */
export const CommitEvent = v.strictObject({ type: v.literal('commit'), ...base, branch: v.string(), sha: v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/)) });
/** A tag moved: made or removed through the tags API, made by a release, received by a push, or fetched by a pull mirror. `sha` is the tagged commit (an annotated tag peeled), all zeros when the tag was deleted. */
export const TagEvent = v.strictObject({ type: v.literal('tag'), ...base, tag: v.string(), sha: v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/)) });
export const MirrorSyncStarted = v.strictObject({ type: v.literal('mirror_sync_started'), ...base, mirror });
export const MirrorSyncFinished = v.strictObject({ type: v.literal('mirror_sync_finished'), ...base, mirror });
/** `error` is git's reason with credentials masked. */
export const MirrorSyncFailed = v.strictObject({ type: v.literal('mirror_sync_failed'), ...base, mirror, error: v.string() });

export const RepoEvent = v.variant('type', [CommitEvent, TagEvent, MirrorSyncStarted, MirrorSyncFinished, MirrorSyncFailed]);
export type RepoEvent = v.InferOutput<typeof RepoEvent>;
export type RepoEventType = RepoEvent['type'];
