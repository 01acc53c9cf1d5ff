import type { MetaRepo } from '../../db/repos/meta-repo.js';
import { badRequest } from '../../errors.js';
import type { AppRegistry, StasisApp } from '../apps.js';
import type { GroupCommit } from './group-commit.js';

type Entry = Record<string, unknown>;
type Stored = Array<[string, { allowed: Entry[]; disallowed: Entry[] }]>;

const META_KEY = 'event_filters';
const INVALID = 'Invalid format definition';

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * One list of a filter after a PUT, by Asterisk's rules: an empty object
 * empties it; an object without this key leaves it; otherwise the value (or a
 * whole body that is an array) must be an array, which replaces it.
 * Undefined means the body is malformed for this list.
 */
function nextList(current: Entry[], body: unknown, key: 'allowed' | 'disallowed'): Entry[] | undefined {
  let value = body;
  if (isObject(body)) {
    if (Object.keys(body).length === 0) return [];
    if (!(key in body)) return current;
    value = body[key];
  }
  // Entries are kept as given; we only insist they are objects, as the Application model declares.
  if (!Array.isArray(value) || !value.every(isObject)) return undefined;
  return value.map((e) => ({ ...e }));
}

/**
 * Event type filters of applications (PUT applications/{name}/eventFilter):
 * set on the app, applied by the outbox, and kept in the meta table with the
 * next commit so that an app restored after a restart keeps its filter. A
 * filter goes when its app is forgotten, as Asterisk drops it with the app.
 */
export class EventFilters {
  /** Apps whose filter came from storage: after the restore, those nobody holds any more are forgotten. */
  private loaded: string[] = [];

  constructor(
    private readonly apps: AppRegistry,
    private readonly meta: MetaRepo,
    private readonly commits: GroupCommit,
  ) {
    const stored = meta.get(META_KEY);
    if (stored) {
      for (const [name, f] of JSON.parse(stored) as Stored) {
        const app = apps.ensure(name);
        app.allowed = f.allowed;
        app.disallowed = f.disallowed;
        this.loaded.push(name);
      }
    }
    apps.onForget((app) => {
      if (app.allowed.length || app.disallowed.length) this.store();
    });
  }

  /** After the restore: an app known only for its stored filter (no channels, no endpoints) is forgotten with it. */
  pruneRestored(): void {
    for (const name of this.loaded) {
      const app = this.apps.get(name);
      if (app) this.apps.forgetIfIdle(app);
    }
    this.loaded = [];
  }

  /**
   * Applies a PUT body (undefined when there was none, which empties both
   * lists as an empty object does). A malformed body changes nothing.
   */
  set(app: StasisApp, body: unknown): void {
    const reset = body === undefined ? {} : body;
    const disallowed = nextList(app.disallowed, reset, 'disallowed');
    const allowed = nextList(app.allowed, reset, 'allowed');
    if (!disallowed || !allowed) throw badRequest(INVALID);
    app.allowed = allowed;
    app.disallowed = disallowed;
    this.store();
  }

  private store(): void {
    const list: Stored = this.apps.list()
      .filter((a) => a.allowed.length || a.disallowed.length)
      .map((a) => [a.name, { allowed: a.allowed, disallowed: a.disallowed }]);
    this.commits.deferWrite(() => this.meta.set(META_KEY, JSON.stringify(list)));
  }
}
