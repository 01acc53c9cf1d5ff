import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  type AddressCheck,
  type AddressKind,
  type MirrorUrlPolicy,
  checkMirrorAddress,
  maskCredentials,
  normaliseScpAddress,
  resolveMirrorTarget,
} from '../../server/gitea/mirrors/url-policy.js';
import { globCounters } from '../../server/util/glob/glob.js';

const test = suite('mirror url policy');

const OPEN: MirrorUrlPolicy = { allowLocalNetworks: false, allowedDomains: [], blockedDomains: [] };
const LOCAL: MirrorUrlPolicy = { ...OPEN, allowLocalNetworks: true };

// No network: every name the tests use, and what it resolves to.
const DNS = new Map<string, string[]>([
  ['example.com', ['93.184.216.34']],
  ['a.example.com', ['93.184.216.40']],
  ['b.a.example.com', ['93.184.216.41']],
  ['git.example.org', ['151.101.1.7', '2606:4700::7']],
  ['intranet.example.com', ['10.1.2.3']],
  ['mixed.example.com', ['93.184.216.34', '192.168.1.10']],
  ['mixed6.example.com', ['2606:4700::1', 'fd12::1']],
  ['metadata.example.com', ['169.254.169.254']],
  ['azure.example.com', ['93.184.216.34', '168.63.129.16']],
  ['nat64-metadata.example.com', ['64:ff9b::a9fe:a9fe']],
  ['empty.example.com', []],
  ['evil.test', ['93.184.216.99']],
]);
let asked: string[] = [];
const resolve = async (host: string): Promise<string[]> => {
  asked.push(host);
  const found = DNS.get(host);
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found;
};
test.before.each(() => {
  asked = [];
});

// Refusals also name the setting that would allow them: test/ops/request-log.test.ts checks those.
const bare = <T extends object>(r: T): T => Object.fromEntries(Object.entries(r).filter(([k]) => k !== 'setting')) as T;
const check = async (address: string, opts: { kind?: AddressKind; isAdmin?: boolean; username?: string; password?: string } = {}, policy: MirrorUrlPolicy = OPEN) =>
  bare(await checkMirrorAddress({ address, kind: opts.kind ?? 'push', isAdmin: opts.isAdmin ?? false, username: opts.username, password: opts.password }, policy, resolve));

const INVALID_URL: AddressCheck = { ok: false, status: 400, message: 'Invalid Url ' };
const INVALID_PROTOCOL: AddressCheck = { ok: false, status: 400, message: 'Invalid mirror protocol' };
const DENIED: AddressCheck = { ok: false, status: 401, message: 'Permission denied' };
const okHttps = (url: string, stripped: string, username = '', password = ''): AddressCheck => ({ ok: true, url, stripped, scheme: 'https', username, password });

test('normaliseScpAddress: user@host:path becomes ssh://user@host/path; anything else is left alone', () => {
  assert.is(normaliseScpAddress('git@github.com:owner/repo.git'), 'ssh://git@github.com/owner/repo.git');
  assert.is(normaliseScpAddress('git@example.com:/srv/repo.git'), 'ssh://git@example.com/srv/repo.git');
  assert.is(normaliseScpAddress('git@[2001:db8::1]:o/r.git'), 'ssh://git@[2001:db8::1]/o/r.git');
  assert.is(normaliseScpAddress('a@b@example.com:o/r'), 'ssh://a@b@example.com/o/r');
  assert.is(normaliseScpAddress('https://git@example.com:o/r'), 'https://git@example.com:o/r');
  assert.is(normaliseScpAddress('example.com:o/r.git'), 'example.com:o/r.git'); // no user
  assert.is(normaliseScpAddress('dir/git@example.com:o/r'), 'dir/git@example.com:o/r'); // '/' before the ':'
  assert.is(normaliseScpAddress('host:o/git@x'), 'host:o/git@x'); // '@' after the first ':'
  assert.is(normaliseScpAddress('/srv/repo.git'), '/srv/repo.git');
});

test('https: credentials are taken out of stripped and kept in url', async () => {
  assert.equal(await check('https://user:pw@example.com/o/r.git'), okHttps('https://user:pw@example.com/o/r.git', 'https://example.com/o/r.git', 'user', 'pw'));
  assert.equal(await check('  https://example.com/o/r.git?x=1#f  '), okHttps('https://example.com/o/r.git?x=1#f', 'https://example.com/o/r.git?x=1#f'));
  // Percent-encoded userinfo is decoded into username/password.
  assert.equal(await check('https://me%40corp:p%3Ass@example.com/o/r.git'), okHttps('https://me%40corp:p%3Ass@example.com/o/r.git', 'https://example.com/o/r.git', 'me@corp', 'p:ss'));
  // The user's spelling is kept (no trailing slash added, port kept).
  assert.equal(await check('HTTPS://Example.COM:8443/o/r'), okHttps('HTTPS://Example.COM:8443/o/r', 'HTTPS://Example.COM:8443/o/r'));
});

test('http(s) and git: given credentials go into the userinfo, replacing any there (Go url.UserPassword)', async () => {
  assert.equal(
    await check('https://example.com/o/r.git', { username: 'mirror', password: 's3cret' }),
    okHttps('https://mirror:s3cret@example.com/o/r.git', 'https://example.com/o/r.git', 'mirror', 's3cret'),
  );
  assert.equal(
    await check('https://old:gone@example.com/o/r.git', { username: 'new', password: 'pw' }),
    okHttps('https://new:pw@example.com/o/r.git', 'https://example.com/o/r.git', 'new', 'pw'),
  );
  // Username alone, password alone.
  assert.equal(await check('https://example.com/o/r.git', { username: 'token' }), okHttps('https://token:@example.com/o/r.git', 'https://example.com/o/r.git', 'token', ''));
  assert.equal(await check('https://example.com/o/r.git', { password: 'tok' }), okHttps('https://:tok@example.com/o/r.git', 'https://example.com/o/r.git', '', 'tok'));
  // Reserved characters are escaped as Go escapes userinfo.
  assert.equal(
    await check('https://example.com/o/r.git', { username: 'a b', password: 'p@ss:/?#é$&+' }),
    okHttps('https://a%20b:p%40ss%3A%2F%3F%23%C3%A9$&+@example.com/o/r.git', 'https://example.com/o/r.git', 'a b', 'p@ss:/?#é$&+'),
  );
  // Empty strings are "not given".
  assert.equal(await check('https://u:p@example.com/r', { username: '', password: '' }), okHttps('https://u:p@example.com/r', 'https://example.com/r', 'u', 'p'));
  assert.equal(await check('git://example.com/o/r.git', { username: 'u', password: 'p' }), {
    ok: true,
    url: 'git://u:p@example.com/o/r.git',
    stripped: 'git://example.com/o/r.git',
    scheme: 'git',
    username: 'u',
    password: 'p',
  });
  assert.equal(await check('http://example.com/r', { username: 'u', password: 'p' }, OPEN), {
    ok: true,
    url: 'http://u:p@example.com/r',
    stripped: 'http://example.com/r',
    scheme: 'http',
    username: 'u',
    password: 'p',
  });
});

test('ssh: the user name stays in stripped, only a password goes; given credentials are not injected', async () => {
  assert.equal(await check('ssh://git@example.com/o/r.git'), {
    ok: true,
    url: 'ssh://git@example.com/o/r.git',
    stripped: 'ssh://git@example.com/o/r.git',
    scheme: 'ssh',
    username: 'git',
    password: '',
  });
  assert.equal(await check('ssh://git:pw@example.com:2222/o/r.git', { username: 'x', password: 'y' }), {
    ok: true,
    url: 'ssh://git:pw@example.com:2222/o/r.git',
    stripped: 'ssh://git@example.com:2222/o/r.git',
    scheme: 'ssh',
    username: 'git',
    password: 'pw',
  });
  assert.equal(await check('ssh://example.com/o/r.git'), { ok: true, url: 'ssh://example.com/o/r.git', stripped: 'ssh://example.com/o/r.git', scheme: 'ssh', username: '', password: '' });
  // A user or host that ssh would read as an option.
  assert.equal(await check('ssh://-oProxyCommand=x@example.com/r'), INVALID_URL);
  assert.equal(await check('ssh://git@-oProxyCommand=x/r'), INVALID_URL);
});

test('scp-like address: ssh for a push mirror, an invalid URL for a pull mirror', async () => {
  assert.equal(await check('git@example.com:o/r.git', { kind: 'push' }), {
    ok: true,
    url: 'ssh://git@example.com/o/r.git',
    stripped: 'ssh://git@example.com/o/r.git',
    scheme: 'ssh',
    username: 'git',
    password: '',
  });
  assert.equal(await check('  git@example.com:o/r.git ', { kind: 'pull' }), INVALID_URL);
  // Normalised, it still meets the host policy.
  assert.equal(await check('git@intranet.example.com:o/r.git', { kind: 'push' }), DENIED);
  assert.equal(await check('git@[::1]:o/r.git', { kind: 'push' }), DENIED);
});

test('unparsable addresses: 400 "Invalid Url " (trailing space)', async () => {
  for (const address of [
    'https://',
    'https:///o/r.git',
    'https:example.com/o/r.git',
    'http://exa mple.com/r',
    'http://[::1/r',
    'http://[zz::1]/r',
    'http://example.com:99999/r',
    'http://example.com:8a/r',
    'https://example.com\\@evil.test/r',
    'https://example.com/r\nx',
    'https://ex%61mple.com/r',
    'git://example.com:9418/r%0d%0aX',
    'https://u:%zz@example.com/r',
  ]) {
    assert.equal(await check(address), INVALID_URL, address);
  }
  assert.equal(await check('user@host:o/r', { kind: 'pull' }), INVALID_URL);
  assert.equal(await check('a:b@host/r', { kind: 'pull' }), INVALID_PROTOCOL); // "a" parses as a scheme, as in Go
  assert.equal(asked, [], 'nothing unparsable is resolved');
});

test('schemes: push takes http/https/git/ssh, pull http/https/git; anything else is 400 "Invalid mirror protocol"', async () => {
  assert.equal(await check('ftp://example.com/r.git'), INVALID_PROTOCOL);
  assert.equal(await check('ftp://example.com/r.git', { kind: 'pull' }), INVALID_PROTOCOL);
  assert.equal(await check('ssh://git@example.com/r.git', { kind: 'pull' }), INVALID_PROTOCOL);
  assert.equal(await check('git+ssh://git@example.com/r.git'), INVALID_PROTOCOL);
  assert.equal(await check('example.com:o/r.git'), INVALID_PROTOCOL); // Go reads "example.com" as the scheme
  assert.equal(await check('javascript:alert(1)'), INVALID_PROTOCOL);
  assert.equal((await check('git://example.com/r.git', { kind: 'pull' })).ok, true);
  assert.equal((await check('http://example.com/r.git', { kind: 'pull' })).ok, true);
  assert.equal((await check('https://example.com/r.git', { kind: 'pull' })).ok, true);
  assert.equal((await check('ssh://git@example.com/r.git', { kind: 'push' })).ok, true);
  assert.equal(asked, ['example.com', 'example.com', 'example.com', 'example.com']);
});

test('local paths and file:// need an admin with local networks allowed, else 401', async () => {
  for (const address of ['/srv/git/x.git', 'file:///srv/git/x.git', 'relative/x.git', '']) {
    assert.equal(await check(address, { isAdmin: false }, LOCAL), DENIED, `${address} non-admin`);
    assert.equal(await check(address, { isAdmin: true }, OPEN), DENIED, `${address} admin without local networks`);
    assert.equal(await check(address, { isAdmin: true, kind: 'pull' }, OPEN), DENIED, `${address} pull`);
  }
  const file = (path: string): AddressCheck => ({ ok: true, url: `file://${path}`, stripped: `file://${path}`, scheme: 'file', username: '', password: '' });
  assert.equal(await check('/srv/git/x.git', { isAdmin: true }, LOCAL), file('/srv/git/x.git'));
  assert.equal(await check('file:///srv/git/x.git', { isAdmin: true }, LOCAL), file('/srv/git/x.git'));
  assert.equal(await check('FILE:///srv/git/my%20repo.git', { isAdmin: true, kind: 'pull' }, LOCAL), file('/srv/git/my repo.git'));
  // Not absolute (Gitea: IsInvalidPath, answered as "Unknown error").
  const unknown: AddressCheck = { ok: false, status: 400, message: 'Unknown error' };
  assert.equal(await check('relative/x.git', { isAdmin: true }, LOCAL), unknown);
  assert.equal(await check('file://server/share/x.git', { isAdmin: true }, LOCAL), unknown);
  assert.equal(asked, []);
});

test('IPv4 literals in a refused range: 401 (every range), public ones pass without asking DNS', async () => {
  const refused = [
    '127.0.0.1', '127.255.255.254', // loopback
    '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', // private
    '169.254.1.1', '169.254.169.254', // link-local, metadata
    '100.64.0.1', '100.127.255.255', // CGNAT
    '0.0.0.0', '0.1.2.3', // unspecified / this network
    '224.0.0.1', '239.255.255.255', // multicast
    '240.0.0.1', '255.255.255.255', // reserved, broadcast
    '168.63.129.16', '100.100.100.200', // cloud metadata outside link-local (Azure, Alibaba)
    // Gitea's reserved ranges: protocol assignments, documentation, 6to4 relay, benchmarking.
    '192.0.0.1', '192.0.2.1', '198.51.100.7', '203.0.113.9', '192.88.99.1', '198.18.0.1', '198.19.255.255',
  ];
  for (const ip of refused) assert.equal(await check(`https://${ip}/r.git`), DENIED, ip);
  for (const ip of ['8.8.8.8', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '169.253.0.1', '223.255.255.255', '11.0.0.1', '192.167.1.1', '192.0.1.1', '198.17.0.1', '198.20.0.1', '168.63.129.17']) {
    assert.equal(await check(`https://${ip}/r.git`), okHttps(`https://${ip}/r.git`, `https://${ip}/r.git`), ip);
  }
  // Other spellings of 127.0.0.1 are the same address.
  for (const host of ['2130706433', '0x7f.1', '0177.0.0.1', '127.1']) assert.equal(await check(`http://${host}/r`), DENIED, host);
  assert.equal(await check('git://2130706433/r'), DENIED);
  assert.equal(await check('ssh://git@2130706433/r'), DENIED);
  assert.equal(asked, [], 'IP literals resolve to themselves');
});

test('IPv6 literals in a refused range: 401, including IPv4-mapped ones', async () => {
  const refused = [
    '::1', '::', '0:0:0:0:0:0:0:1', // loopback, unspecified
    'fc00::1', 'fd12:3456::1', 'fd00:ec2::254', // unique local, metadata
    'fe80::1', 'febf::1', // link-local
    'fec0::1', // site-local
    'ff02::1', // multicast
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::ffff:100.64.0.1', '::ffff:0.0.0.0', // mapped
    '::127.0.0.1', // IPv4-compatible
    '64:ff9b::a00:1', '2002:7f00:1::1', // NAT64 / 6to4 of 10.0.0.1 / 127.0.0.1
    // Gitea's reserved ranges: NAT64 and 6to4 of anything, local NAT64, discard, Teredo, ORCHID, documentation.
    '64:ff9b::808:808', '2002:808:808::1', '64:ff9b:1::1', '100::1', '2001::1', '2001:10::1', '2001:2f::1', '2001:db8::1',
  ];
  for (const ip of refused) assert.equal(await check(`https://[${ip}]/r.git`), DENIED, ip);
  for (const ip of ['2606:4700::1111', '::ffff:8.8.8.8', 'fe7f::1', 'fbff::1', '2001:4860::8888', '2001:30::1', '64:ff9c::1']) {
    const r = await check(`https://[${ip}]/r.git`);
    assert.is(r.ok, true, ip);
  }
  assert.equal(await check('ssh://git@[::1]:22/r'), DENIED);
  assert.equal(asked, []);
});

test('names: every resolved address must be allowed; a name that does not resolve is refused', async () => {
  assert.equal(await check('https://intranet.example.com/r'), DENIED);
  assert.equal(await check('https://mixed.example.com/r'), DENIED, 'one public and one private address');
  assert.equal(await check('https://mixed6.example.com/r'), DENIED, 'one public and one ULA address');
  assert.equal(await check('https://nowhere.example.com/r'), DENIED, 'NXDOMAIN');
  assert.equal(await check('https://empty.example.com/r'), DENIED, 'no address');
  assert.equal(await check('https://git.example.org/r'), okHttps('https://git.example.org/r', 'https://git.example.org/r'));
  // The resolver gets the host in lower case, without port or userinfo.
  asked = [];
  assert.equal((await check('https://u:p@EXAMPLE.com:444/r')).ok, true);
  assert.equal(asked, ['example.com']);
  // With local networks allowed, private and loopback names pass; unresolvable still does not.
  assert.equal((await check('https://intranet.example.com/r', {}, LOCAL)).ok, true);
  assert.equal((await check('https://mixed.example.com/r', {}, LOCAL)).ok, true);
  assert.equal(await check('https://nowhere.example.com/r', {}, LOCAL), DENIED);
});

test('allowLocalNetworks: loopback, private and CGNAT pass; metadata, link-local, unspecified and multicast stay refused', async () => {
  for (const host of ['127.0.0.1', '10.0.0.1', '192.168.0.5', '172.20.0.1', '100.64.0.1', '[::1]', '[fd12::1]', '[::ffff:127.0.0.1]']) {
    assert.equal(await check(`http://${host}/r`, {}, LOCAL), { ok: true, url: `http://${host}/r`, stripped: `http://${host}/r`, scheme: 'http', username: '', password: '' }, host);
  }
  for (const host of ['169.254.169.254', '[fd00:ec2::254]', '[::ffff:169.254.169.254]', '169.254.0.1', '[fe80::1]', '0.0.0.0', '[::]', '224.0.0.1', '[ff02::1]', '255.255.255.255', '168.63.129.16', '100.100.100.200', '[64:ff9b::a9fe:a9fe]', '[2002:a9fe:a9fe::1]']) {
    assert.equal(await check(`http://${host}/r`, {}, LOCAL), DENIED, host);
  }
  // Gitea counts its reserved ranges as private: local networks admit them.
  for (const host of ['198.51.100.7', '[2001:db8::1]', '[64:ff9b::808:808]']) assert.is((await check(`http://${host}/r`, {}, LOCAL)).ok, true, host);
  assert.equal(await check('https://metadata.example.com/r', {}, LOCAL), DENIED);
  assert.equal(await check('https://nat64-metadata.example.com/r', {}, LOCAL), DENIED);
});

test('never means never: a name the allow list admits is still refused when it resolves to a metadata, link-local or unspecified address', async () => {
  const allow = (...allowedDomains: string[]): MirrorUrlPolicy => ({ ...OPEN, allowedDomains });
  assert.equal(await check('https://metadata.example.com/r', {}, allow('metadata.example.com')), DENIED);
  assert.equal(await check('https://metadata.example.com/r', {}, allow('*')), DENIED);
  assert.equal(await check('https://metadata.example.com/r', {}, { ...LOCAL, allowedDomains: ['*.example.com'] }), DENIED);
  assert.equal(await check('https://azure.example.com/r', {}, allow('*.example.com')), DENIED, 'one never address among public ones');
  assert.equal(await check('https://nat64-metadata.example.com/r', {}, allow('*')), DENIED);
  // Literals and address patterns too.
  for (const host of ['169.254.169.254', '[fd00:ec2::254]', '[fe80::1]', '0.0.0.0', '[::]', '224.0.0.1', '255.255.255.255', '168.63.129.16']) {
    assert.equal(await check(`http://${host}/r`, {}, allow('*')), DENIED, host);
  }
  assert.equal(await check('http://169.254.169.254/r', {}, allow('169.254.*')), DENIED);
  assert.equal(await check('https://metadata.example.com/r', {}, allow('169.254.*')), DENIED);
  // Ssh as well.
  assert.equal(await check('git@metadata.example.com:o/r', {}, allow('*')), DENIED);
});

test('resolveMirrorTarget: checks the stored address again now and returns the approved addresses to connect to', async () => {
  assert.equal(await resolveMirrorTarget('https://git.example.org/o/r.git', 'pull', OPEN, resolve), { ok: true, target: { scheme: 'https', host: 'git.example.org', port: 443, addresses: ['151.101.1.7', '2606:4700::7'] } });
  assert.equal(await resolveMirrorTarget('http://Example.COM:8080/r', 'push', OPEN, resolve), { ok: true, target: { scheme: 'http', host: 'example.com', port: 8080, addresses: ['93.184.216.34'] } });
  assert.equal(await resolveMirrorTarget('git://example.com/r', 'pull', OPEN, resolve), { ok: true, target: { scheme: 'git', host: 'example.com', port: 9418, addresses: ['93.184.216.34'] } });
  assert.equal(await resolveMirrorTarget('ssh://git@example.com/r', 'push', OPEN, resolve), { ok: true, target: { scheme: 'ssh', host: 'example.com', port: 22, addresses: ['93.184.216.34'] } });
  // IP literals need no lookup; IPv6 comes without brackets.
  assert.equal(await resolveMirrorTarget('http://[::1]:3000/r', 'push', LOCAL, resolve), { ok: true, target: { scheme: 'http', host: '::1', port: 3000 } });
  // A name that now resolves elsewhere (rebinding) is refused; one that no longer resolves too, even when the allow list names it.
  let answer = ['93.184.216.34'];
  const rebinding = async () => answer;
  assert.is((await resolveMirrorTarget('https://rebind.example.com/r', 'pull', OPEN, rebinding)).ok, true);
  answer = ['169.254.169.254'];
  assert.equal(bare(await resolveMirrorTarget('https://rebind.example.com/r', 'pull', OPEN, rebinding)), { ok: false, reason: 'refused' });
  assert.equal(bare(await resolveMirrorTarget('https://rebind.example.com/r', 'pull', { ...LOCAL, allowedDomains: ['*'] }, rebinding)), { ok: false, reason: 'refused' });
  assert.equal(await resolveMirrorTarget('https://nowhere.example.com/r', 'pull', { ...OPEN, allowedDomains: ['*'] }, resolve), { ok: false, reason: 'unresolved' });
  // The policy as it is now: local networks switched off since the mirror was added.
  assert.equal(bare(await resolveMirrorTarget('http://127.0.0.1:3000/r', 'push', OPEN, resolve)), { ok: false, reason: 'refused' });
  assert.equal(await resolveMirrorTarget('file:///srv/r.git', 'push', LOCAL, resolve), { ok: true });
  assert.equal(bare(await resolveMirrorTarget('file:///srv/r.git', 'push', OPEN, resolve)), { ok: false, reason: 'refused' });
});

test('allow list: glob patterns, case-insensitive; a match skips the local-network check, a miss is 401', async () => {
  const allow = (...allowedDomains: string[]): MirrorUrlPolicy => ({ ...OPEN, allowedDomains });
  assert.equal((await check('https://a.example.com/r', {}, allow('*.example.com'))).ok, true);
  assert.equal((await check('https://b.a.example.com/r', {}, allow('*.example.com'))).ok, true);
  assert.equal(await check('https://example.com/r', {}, allow('*.example.com')), DENIED, '*.example.com does not match example.com');
  assert.equal(await check('https://evil.test/r', {}, allow('*.example.com', 'git.example.org')), DENIED);
  assert.equal((await check('https://GIT.Example.ORG/r', {}, allow(' Git.Example.Org '))).ok, true);
  assert.equal((await check('https://git.example.org./r', {}, allow('git.example.org'))).ok, true, 'trailing root dot');
  // Matched by name: a private address is fine (as Gitea); the name is looked up only for the never-allowed ranges.
  asked = [];
  assert.equal(await check('https://intranet.example.com/r', {}, allow('*.example.com')), okHttps('https://intranet.example.com/r', 'https://intranet.example.com/r'));
  assert.equal(asked, ['intranet.example.com']);
  assert.equal((await check('https://nowhere.example.com/r', {}, allow('*'))).ok, true, '"*" allows everything, even an unresolvable name');
  assert.equal((await check('http://127.0.0.1/r', {}, allow('*'))).ok, true);
  // IPv6 hosts are compared without brackets.
  assert.equal((await check('http://[::1]/r', {}, allow('::1'))).ok, true);
  assert.equal((await check('http://[::1]/r', {}, allow('[::1]'))).ok, true);
  // The policy covers ssh too, and blank entries are no list at all.
  assert.equal(await check('git@evil.test:o/r', {}, allow('*.example.com')), DENIED);
  assert.equal((await check('git@a.example.com:o/r', {}, allow('*.example.com'))).ok, true);
  assert.equal((await check('https://evil.test/r', {}, allow('', ' '))).ok, true);
  // Patterns also match the addresses a name resolves to (Gitea matches IPs too).
  assert.equal((await check('https://intranet.example.com/r', {}, allow('10.*'))).ok, true);
  assert.equal(await check('https://mixed.example.com/r', {}, allow('93.184.216.*')), DENIED, 'every address must match');
});

test('block list: a match is 401, and blocked wins over allowed and over allowLocalNetworks', async () => {
  const policy = (blockedDomains: string[], allowedDomains: string[] = [], allowLocalNetworks = false): MirrorUrlPolicy => ({ allowLocalNetworks, allowedDomains, blockedDomains });
  assert.equal(await check('https://evil.test/r', {}, policy(['evil.test'])), DENIED);
  assert.equal(await check('https://EVIL.test./r', {}, policy(['Evil.Test'])), DENIED, 'case and a trailing dot do not dodge it');
  assert.equal(await check('https://a.example.com/r', {}, policy(['*.example.com'])), DENIED);
  assert.equal((await check('https://example.com/r', {}, policy(['*.example.com']))).ok, true);
  assert.equal(await check('https://a.example.com/r', {}, policy(['*.example.com'], ['a.example.com'])), DENIED, 'blocked wins over allowed');
  assert.equal(await check('https://a.example.com/r', {}, policy(['*'], ['*'])), DENIED);
  assert.equal(await check('http://127.0.0.1/r', {}, policy(['127.0.0.1'], [], true)), DENIED);
  assert.equal(await check('http://[::1]/r', {}, policy(['::1'], [], true)), DENIED);
  assert.equal(await check('ssh://git@evil.test/r', {}, policy(['evil.*'])), DENIED);
  // A blocked pattern also catches the addresses a name resolves to.
  assert.equal(await check('https://intranet.example.com/r', {}, policy(['10.*'], [], true)), DENIED);
  assert.equal((await check('https://git.example.org/r', {}, policy(['10.*']))).ok, true);
});

test('the default resolver is the system one (an IP literal never reaches it)', async () => {
  assert.equal(await checkMirrorAddress({ address: 'http://127.0.0.1/r', kind: 'push', isAdmin: true }, OPEN), { ...DENIED, setting: 'MIRROR_ALLOW_LOCAL_NETWORKS' });
  assert.equal((await checkMirrorAddress({ address: 'http://127.0.0.1/r', kind: 'push', isAdmin: true }, LOCAL)).ok, true);
  assert.equal(await checkMirrorAddress({ address: 'https://localhost/r', kind: 'push', isAdmin: false }, OPEN), { ...DENIED, setting: 'MIRROR_ALLOW_LOCAL_NETWORKS' });
});

test('maskCredentials: secrets (longest first, also percent-encoded) and URL userinfo become <credentials>', () => {
  const stderr = "fatal: unable to access 'https://mirror:p%40ss@example.com/o/r.git/': The requested URL returned error: 403\nremote: token p@ss rejected";
  assert.is(
    maskCredentials(stderr, ['p@ss']),
    "fatal: unable to access 'https://<credentials>@example.com/o/r.git/': The requested URL returned error: 403\nremote: token <credentials> rejected",
  );
  assert.is(maskCredentials('ssh://git@example.com/r and git://a:b@h/r', []), 'ssh://<credentials>@example.com/r and git://<credentials>@h/r');
  assert.is(maskCredentials('tok tokLonger tok', ['tok', 'tokLonger']), '<credentials> <credentials> <credentials>');
  assert.is(maskCredentials('a.b* (a.b*)', ['a.b*']), '<credentials> (<credentials>)', 'regex characters are literal');
  assert.is(maskCredentials('x: y', ['', ':']), 'x<credentials> y', 'an empty secret masks nothing');
  assert.is(maskCredentials('nothing secret here, https://example.com/r', ['pw']), 'nothing secret here, https://example.com/r');
  assert.is(maskCredentials('push https://:tok@example.com/r', ['tok']), 'push https://<credentials>@example.com/r');
});

test('host patterns cannot backtrack: a hostile allow or block pattern against a long name stays bounded', async () => {
  // With regular expressions, `*a*a…*b` against a long run of a's took time exponential in the stars.
  const hostile = `${'*a'.repeat(12)}*b`;
  const name = `${'a'.repeat(200)}.example.com`;
  DNS.set(name, ['93.184.216.50']);
  try {
    const before = globCounters.steps;
    assert.equal(await check(`https://${name}/r`, {}, { ...OPEN, allowedDomains: [hostile] }), DENIED);
    assert.is((await check(`https://${name}/r`, {}, { ...OPEN, blockedDomains: [hostile] })).ok, true);
    assert.ok(globCounters.steps - before < 200_000, `steps ${globCounters.steps - before}`);
    // Wildcards keep their meaning: `*` spans dots in a host name, `?` is one character, `[…]` a class.
    assert.equal((await check('https://a.example.com/r', {}, { ...OPEN, allowedDomains: ['*.exampl?.[d-z]om'] })).ok, false);
    assert.equal((await check('https://a.example.com/r', {}, { ...OPEN, allowedDomains: ['*.exampl?.[a-c]om'] })).ok, true);
    assert.equal((await check('https://b.a.example.com/r', {}, { ...OPEN, allowedDomains: ['*.example.com'] })).ok, true);
  } finally {
    DNS.delete(name);
  }
});

test.run();
