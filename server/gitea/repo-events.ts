import * as v from 'valibot';
import { RepoEvent } from '../../protocol/gitea/events.js';
import { goTime } from '../util/go-format.js';
import type { RepoContext } from './services/repos.js';

/** Which mirror an event is about. */
export type MirrorRef = { kind: 'push' | 'pull'; remote_name: string; remote_address: string };
type Listener = (event: RepoEvent) => void;

/**
 * The repository event bus: commits, tags and mirror syncs, for the `/api/v1/events`
 * stream. In test mode every event is checked against protocol/gitea/events.ts.
 */
export class RepoEvents {
  private readonly listeners = new Set<Listener>();

  constructor(private readonly violations?: string[]) {}

  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  get size(): number {
    return this.listeners.size;
  }

  private emit(event: RepoEvent): void {
    if (this.violations) {
      const r = v.safeParse(RepoEvent, event);
      if (!r.success) this.violations.push(`event ${event.type}: ${r.issues[0]?.message}`);
    }
    for (const l of this.listeners) l(event);
  }

  private base(repo: RepoContext) {
    return { timestamp: goTime(Math.floor(Date.now() / 1000)), repository: { id: repo.row.id, full_name: `${repo.owner.name}/${repo.row.name}`, private: !!repo.row.is_private } };
  }

  commit(repo: RepoContext, branch: string, sha: string): void {
    if (this.listeners.size) this.emit({ type: 'commit', ...this.base(repo), branch, sha });
  }

  /** A tag made, moved or removed (`sha` all zeros). */
  tag(repo: RepoContext, tag: string, sha: string): void {
    if (this.listeners.size) this.emit({ type: 'tag', ...this.base(repo), tag, sha });
  }

  mirrorSync(phase: 'started' | 'finished' | 'failed', repo: RepoContext, mirror: MirrorRef, error = ''): void {
    if (!this.listeners.size) return;
    if (phase === 'failed') this.emit({ type: 'mirror_sync_failed', ...this.base(repo), mirror, error });
    else this.emit({ type: phase === 'started' ? 'mirror_sync_started' : 'mirror_sync_finished', ...this.base(repo), mirror });
  }
}
