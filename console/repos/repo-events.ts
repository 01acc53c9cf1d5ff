import { socketUrl } from '../api.js';
import { Observable } from '../observable.js';
import type { Session } from '../session.js';

/** A mirror's live status, from the newest mirror_sync_* event about it. */
export interface MirrorStatus {
  state: 'syncing' | 'synced' | 'failed';
  at: string;
  error?: string;
}

const RECONNECT_MS = 2000;

interface RepoEvent {
  type: string;
  timestamp: string;
  repository: { full_name: string };
  mirror?: { kind: string; remote_name: string };
  error?: string;
  branch?: string;
  sha?: string;
}

/**
 * The repository event socket (GET /api/v1/events), opened with the session's token (a
 * browser cannot give a WebSocket an Authorization header; the API takes `?token=`). It
 * keeps each mirror's newest status and counts commits per repository.
 */
export class RepoEventFeed extends Observable {
  private socket: WebSocket | undefined;
  private stopped = false;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private readonly mirrors = new Map<string, MirrorStatus>();
  readonly commits = new Map<string, number>();
  state: 'off' | 'connecting' | 'open' | 'closed' = 'off';

  constructor(private readonly session: Session) {
    super();
  }

  start(): void {
    const g = this.session.gitea;
    if (!g || !('token' in g)) return;
    this.state = 'connecting';
    const ws = new WebSocket(socketUrl('/api/v1/events', { token: g.token }));
    this.socket = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.state = 'open';
      this.changed();
    };
    ws.onclose = () => {
      this.state = 'closed';
      this.changed();
      // A socket that had opened went away (a restart, a slow reader): open it again. A refused one stays closed.
      if (opened && !this.stopped) this.retry = setTimeout(() => this.start(), RECONNECT_MS);
    };
    ws.onmessage = (m) => this.apply(JSON.parse(String(m.data)) as RepoEvent);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    this.socket?.close(1000);
  }

  private apply(e: RepoEvent): void {
    const repo = e.repository.full_name.toLowerCase();
    if (e.type === 'commit') this.commits.set(repo, (this.commits.get(repo) ?? 0) + 1);
    else if (e.mirror) {
      const state = e.type === 'mirror_sync_started' ? 'syncing' : e.type === 'mirror_sync_finished' ? 'synced' : 'failed';
      this.mirrors.set(`${repo}\n${e.mirror.remote_name}`, { state, at: e.timestamp, ...(e.error ? { error: e.error } : {}) });
    }
    this.changed();
  }

  /** The live status of a repository's mirror (`origin` for a pull mirror), if an event told it. */
  statusOf(fullName: string, remote: string): MirrorStatus | undefined {
    return this.mirrors.get(`${fullName.toLowerCase()}\n${remote}`);
  }
}
