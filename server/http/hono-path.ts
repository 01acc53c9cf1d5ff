/**
 * Turns a declared path into Hono's pattern under a prefix: `{name}` becomes
 * `:name`, or `:name{.+}` when `takesRest(name)` says the parameter spans the
 * rest of the path (Gitea's `{filepath}`). Runs once per route at mount time.
 */
export function honoPath(prefix: string, path: string, takesRest?: (name: string) => boolean): string {
  return prefix + path.replace(/\{([^}]+)\}/g, (_, name: string) => (takesRest?.(name) ? `:${name}{.+}` : `:${name}`));
}
