/**
 * Why a git network operation of a mirror failed, in our own words. What git
 * prints can carry the remote's text (`remote:` lines, a body quoted in an
 * error, the first bytes of an answer that is not git's), and that text must
 * never reach last_error, an API answer or a log above debug: it would let a
 * mirror read back what a forbidden address says. So git's output is only
 * matched against the failures it knows, and one fixed sentence stands for
 * each. Rules are tried in order; the first that matches wins.
 */
const RULES: readonly [RegExp, string][] = [
  [/Operation too slow|timed out|Timeout was reached/i, 'timed out'],
  [/Could not resolve host|Name or service not known|Temporary failure in name resolution|nodename nor servname/i, 'could not resolve the host'],
  [/Connection refused|Couldn't connect|Failed to connect|Network is unreachable|No route to host|unable to connect/i, 'could not connect to the remote'],
  [/Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED/i, 'the host key of the remote did not match'],
  [/SSL|TLS|[Cc]ertificate/, 'the TLS connection to the remote failed'],
  [/The requested URL returned error: 30\d/, 'the remote answered with a redirect, which mirrors do not follow'],
  [/Authentication failed|could not read (Username|Password)|The requested URL returned error: 40[13]|Permission denied \(|terminal prompts disabled/i, 'authentication failed'],
  [/The requested URL returned error: 404|Repository not found|not found|does not appear to be a git repository|No such file or directory/i, 'repository not found'],
  [/\[rejected\]|\[remote rejected\]|failed to push some refs|pre-receive hook declined/i, 'the remote rejected a ref update'],
  [/The requested URL returned error: 5\d\d/, 'the remote answered with a server error'],
  [/The requested URL returned error: \d{3}/, 'the remote refused the request'],
  [/remote end hung up|early EOF|Connection reset|connection closed|broken pipe|unexpected disconnect/i, 'the remote closed the connection'],
  [/protocol error|invalid server response|bad line length|not valid: is this a git repository|bad packet|unknown object format|expected flush|expected (ACK|NAK)/i, 'the remote did not answer as a git server'],
];

/** Our sentence for a failed `git <op>` against a mirror's remote, given git's error output. */
export function describeGitFailure(op: string, stderr: string): string {
  for (const [pattern, words] of RULES) if (pattern.test(stderr)) return words;
  return `git ${op} failed`;
}
