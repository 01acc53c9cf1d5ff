import * as v from 'valibot';
import { isOriginPattern } from '../util/origin-patterns.js';
import { bool, commaList, goDuration } from './setting-schemas.js';

/** An HTTP token (RFC 9110 tchar): a method or a header name. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const tokenList = (name: string, what: string) =>
  v.pipe(
    v.string(),
    v.transform(commaList),
    v.check((list) => list.length > 0 && list.every((x) => TOKEN.test(x)), `${name} must be a comma-separated list of ${what}`),
  );

/** Gitea's `[cors]` section under our names; `.env.example` documents them. */
export const corsEnv = {
  CORS_ENABLED: v.optional(bool('CORS_ENABLED'), 'false'),
  CORS_ALLOW_DOMAIN: v.optional(
    v.pipe(
      v.string(),
      v.transform(commaList),
      v.check((list) => list.length > 0 && list.every(isOriginPattern), 'CORS_ALLOW_DOMAIN must be * or origins such as https://cms.example.com (each with at most one *, as in https://*.example.com)'),
    ),
    '*',
  ),
  CORS_METHODS: v.optional(tokenList('CORS_METHODS', 'HTTP methods such as GET,POST'), 'GET,HEAD,POST,PUT,PATCH,DELETE,OPTIONS'),
  CORS_MAX_AGE: v.optional(goDuration('CORS_MAX_AGE'), '10m'),
  CORS_ALLOW_CREDENTIALS: v.optional(bool('CORS_ALLOW_CREDENTIALS'), 'false'),
  CORS_HEADERS: v.optional(tokenList('CORS_HEADERS', 'header names such as Content-Type,User-Agent (or *)'), 'Content-Type,User-Agent'),
};

/** Cross-origin access to the repository API (Gitea's `[cors]`); off unless `enabled`. */
export interface CorsSettings {
  enabled: boolean;
  /** `*`, or origins that may hold one `*` (util/origin-patterns.ts). */
  allowDomain: string[];
  /** Methods a cross-origin request may use (OPTIONS always may). */
  methods: string[];
  /** How long a browser may keep a preflight's answer, in whole seconds (0: no Access-Control-Max-Age). */
  maxAgeSeconds: number;
  allowCredentials: boolean;
  /** Request headers allowed besides Authorization, X-Gitea-OTP and Origin; `*` allows any. */
  headers: string[];
}

/** The CORS settings from their validated environment values. */
export function corsSettings(e: v.InferOutput<v.ObjectSchema<typeof corsEnv, undefined>>): CorsSettings {
  return {
    enabled: e.CORS_ENABLED,
    allowDomain: e.CORS_ALLOW_DOMAIN,
    methods: e.CORS_METHODS,
    // Go's int(MaxAge.Seconds()): whole seconds, the fraction dropped.
    maxAgeSeconds: Number(e.CORS_MAX_AGE / 1_000_000_000n),
    allowCredentials: e.CORS_ALLOW_CREDENTIALS,
    headers: e.CORS_HEADERS,
  };
}
