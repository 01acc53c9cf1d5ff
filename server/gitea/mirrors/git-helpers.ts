import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Small programs git runs on our behalf during a mirror's network operation,
 * written under DATA_DIR/hooks at start. Both read what they need from their
 * environment (never a command line, which `ps` shows to everyone) and both
 * act for one host only: the one the address policy checked.
 *
 * - credential helper (`credential.helper`): answers git's `get` with the
 *   mirror's username and password when the protocol and host git asks for
 *   are the mirror's own, and with nothing otherwise (a redirect or any other
 *   host gets no credentials);
 * - git proxy (`GIT_PROXY_COMMAND`, git:// only): connects to one of the
 *   addresses the policy approved instead of letting git resolve the name
 *   again.
 */
export const CREDENTIAL_ENV = {
  username: 'TRUNKLINE_MIRROR_USERNAME',
  password: 'TRUNKLINE_MIRROR_PASSWORD',
  protocol: 'TRUNKLINE_MIRROR_PROTOCOL',
  host: 'TRUNKLINE_MIRROR_HOST',
} as const;

/** Environment variables that tell the git:// proxy helper which host it may reach and at which approved addresses. */
export const PROXY_ENV = { node: 'TRUNKLINE_NODE', host: 'TRUNKLINE_PIN_HOST', addresses: 'TRUNKLINE_PIN_ADDRESSES' } as const;

const CREDENTIAL_HELPER = `#!/bin/sh
# Written by Trunkline: a mirror's credentials for git, from the environment, for the
# mirror's own protocol and host only.
[ "$1" = get ] || exit 0
lower() { printf '%s' "$1" | tr 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' 'abcdefghijklmnopqrstuvwxyz'; }
protocol=
host=
while IFS= read -r line && [ -n "$line" ]; do
  case "$line" in
    protocol=*) protocol=$(lower "\${line#protocol=}") ;;
    host=*) host=$(lower "\${line#host=}") ;;
  esac
done
[ -n "$${CREDENTIAL_ENV.host}" ] || exit 0
[ "$protocol" = "$${CREDENTIAL_ENV.protocol}" ] && [ "$host" = "$${CREDENTIAL_ENV.host}" ] || exit 0
printf 'username=%s\\npassword=%s\\n' "$${CREDENTIAL_ENV.username}" "$${CREDENTIAL_ENV.password}"
`;

const GIT_PROXY = `#!/bin/sh
# Written by Trunkline: git:// connections of a mirror go to the addresses the policy approved.
exec "$${PROXY_ENV.node}" "$0.mjs" "$@"
`;

const GIT_PROXY_MJS = `// Written by Trunkline: git runs this (through git-proxy) as "git-proxy <host> <port>" for git://.
import { connect } from 'node:net';
const [host = '', port = ''] = process.argv.slice(2);
const want = (process.env.${PROXY_ENV.host} || '').toLowerCase();
const addresses = (process.env.${PROXY_ENV.addresses} || '').split(',').filter(Boolean);
if (!want || host.toLowerCase() !== want || !addresses.length || !/^\\d{1,5}$/.test(port)) {
  process.stderr.write('fatal: unable to connect: not the mirror host\\n');
  process.exit(1);
}
const attempt = (i) => {
  const socket = connect({ host: addresses[i], port: Number(port) });
  socket.once('error', (err) => {
    if (i + 1 < addresses.length) attempt(i + 1);
    else {
      process.stderr.write('fatal: unable to connect: ' + (err.code || 'failed') + '\\n');
      process.exit(1);
    }
  });
  socket.once('connect', () => {
    socket.removeAllListeners('error');
    socket.on('error', () => process.exit(1));
    process.stdin.pipe(socket);
    socket.pipe(process.stdout);
    socket.on('end', () => process.stdout.end());
    socket.on('close', () => process.exit(0));
  });
};
attempt(0);
`;

/** The helper scripts git runs for mirror operations. */
export interface MirrorGitHelpers {
  credentialHelper: string;
  gitProxy: string;
}

/** Writes (or refreshes) the helpers under DATA_DIR/hooks; returns their paths. */
export function installMirrorGitHelpers(dataDir: string): MirrorGitHelpers {
  const dir = resolve(dataDir, 'hooks');
  mkdirSync(dir, { recursive: true });
  const credentialHelper = join(dir, 'mirror-credentials');
  const gitProxy = join(dir, 'mirror-git-proxy');
  writeIfChanged(credentialHelper, CREDENTIAL_HELPER, 0o700);
  writeIfChanged(gitProxy, GIT_PROXY, 0o700);
  writeIfChanged(`${gitProxy}.mjs`, GIT_PROXY_MJS, 0o600);
  // The askpass helper of earlier versions answered any host's prompt: gone.
  rmSync(join(dir, 'askpass'), { force: true });
  return { credentialHelper, gitProxy };
}

function writeIfChanged(path: string, content: string, mode: number): void {
  try {
    if (readFileSync(path, 'utf8') === content) return;
  } catch {}
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode });
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}
