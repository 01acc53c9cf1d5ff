import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { safeUrl, type Logger } from '../log.js';
import { Lru } from '../util/lru.js';

/** What a handler offers to have sent again: the encoded body, and how to tell the answer still holds. */
export interface Offer {
  body: Uint8Array;
  /**
   * Whether the answer is still what the app would send to a request with the
   * same URL and credentials: nothing it was built from has changed. False
   * sends the request through the app.
   */
  holds(): boolean;
  /** Who the answer was for, for the request log. */
  user: string | undefined;
}

interface Kept extends Offer {
  status: number;
  headers: OutgoingHttpHeaders;
}

/** Request headers that change an answer beyond what the key holds (CORS, conditions, ranges, sessions): such requests always go through the app. */
const VARYING = ['origin', 'cookie', 'if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'range', 'if-range'];
/** Headers node writes itself for every answer. */
const NODE_OWN = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
const MAX_BODY = 4 * 1024 * 1024;

/** The target as the request log writes it for the app's requests (parsed, so escapes read the same). */
function pathAndQuery(target: string): string {
  const url = new URL(target, 'http://localhost');
  return url.pathname + url.search;
}

/**
 * Answers sent again without running the app: the route, guards, handler and
 * response object cost far more than the bytes of a warm answer (a page of
 * a tree, a page of commits), so a GET whose answer a handler offered, asked
 * again with the same URL and credentials, is written straight from memory
 * while the offer `holds`. Only GETs under `prefix` with none of the VARYING
 * headers are kept or served; everything else, and every miss, goes to the
 * app. Bounded by count and bytes.
 */
export class AnswerMemo {
  private readonly kept = new Lru<string, Kept>(4096, { maxWeight: 64 * 1024 * 1024, weigh: (k) => k.body.byteLength + 512 });
  private readonly offers = new WeakMap<Response, Offer>();
  /** Requests answered from memory, and kept answers found no longer to hold (tests and benchmarks read them). */
  readonly counts = { served: 0, stale: 0 };

  constructor(
    private readonly prefix: string,
    private readonly log: Logger,
  ) {}

  private keyOf(req: IncomingMessage): string | undefined {
    const url = req.url;
    if (req.method !== 'GET' || !url?.startsWith(this.prefix)) return undefined;
    const h = req.headers;
    for (const name of VARYING) if (h[name] !== undefined) return undefined;
    return `${url}\n${h.authorization ?? ''}`;
  }

  /** A handler's answer may be sent again (if the request allows it), once the middleware has seen its final headers. */
  offer(res: Response, offer: Offer): Response {
    if (offer.body.byteLength <= MAX_BODY) this.offers.set(res, offer);
    return res;
  }

  /** Keeps offered answers, as they leave the app (after every middleware has added its headers). */
  middleware(): MiddlewareHandler {
    return async (c, next) => {
      await next();
      const offer = this.offers.get(c.res);
      const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
      if (!offer || !incoming || c.res.status !== 200 || c.res.headers.has('set-cookie')) return;
      const key = this.keyOf(incoming);
      if (key === undefined) return;
      const headers: OutgoingHttpHeaders = {};
      for (const [k, v] of c.res.headers) if (!NODE_OWN.has(k)) headers[k] = v;
      headers['content-length'] = offer.body.byteLength;
      this.kept.set(key, { ...offer, status: c.res.status, headers });
    };
  }

  /** A check that fails (the database gone at shutdown) is a miss: the app answers, in its own way. */
  private stillHolds(kept: Kept): boolean {
    try {
      return kept.holds();
    } catch {
      return false;
    }
  }

  /**
   * Sends the kept answer to `req` if there is one that still holds; otherwise
   * hands the request to `next` (the app).
   */
  serve(req: IncomingMessage, res: ServerResponse, next: () => unknown): void {
    const key = this.keyOf(req);
    const kept = key === undefined ? undefined : this.kept.get(key);
    if (!kept) return void next();
    if (!this.stillHolds(kept)) {
      this.counts.stale++;
      this.kept.delete(key!);
      return void next();
    }
    this.counts.served++;
    const started = performance.now();
    res.writeHead(kept.status, kept.headers);
    res.end(kept.body);
    if (this.log.isLevelEnabled('debug')) {
      res.once('close', () =>
        this.log.debug({ method: 'GET', path: safeUrl(pathAndQuery(req.url ?? '/')), status: kept.status, ms: Math.round((performance.now() - started) * 10) / 10, user: kept.user }, 'request'),
      );
    }
  }
}
