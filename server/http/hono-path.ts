/**
 * Turns a declared path into Hono's pattern under a prefix: `{name}` becomes
 * `:name`, or `:name{.+}` when `takesRest(name)` says the parameter spans the
 * rest of the path (Gitea's `{filepath}`). Runs once per route at mount time.
 *
 * Hono cannot split one segment into two parameters, so `{a}.{b}` (Gitea's
 * `{sha}.{diffType}`, the only such pair, whose suffix is `diff` or `patch`)
 * becomes one parameter `a` holding both; `splitDottedParams` separates them.
 */
export function honoPath(prefix: string, path: string, takesRest?: (name: string) => boolean): string {
  return (
    prefix +
    path.replace(/\{([^}]+)\}(\.\{[^}]+\})?/g, (_, name: string, dotted?: string) =>
      dotted ? `:${name}{[^/]+\\.(?:diff|patch)}` : takesRest?.(name) ? `:${name}{.+}` : `:${name}`,
    )
  );
}

/** For each `{a}.{b}` of `path`, splits the value bound to `a` at its last dot into `a` and `b`. */
export function splitDottedParams(path: string, params: Record<string, string>): void {
  for (const m of path.matchAll(/\{([^}]+)\}\.\{([^}]+)\}/g)) {
    const both = params[m[1]!] ?? '';
    const dot = both.lastIndexOf('.');
    params[m[1]!] = dot < 0 ? both : both.slice(0, dot);
    params[m[2]!] = dot < 0 ? '' : both.slice(dot + 1);
  }
}
