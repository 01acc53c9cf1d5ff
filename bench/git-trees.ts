// GET /api/v1/repos/{o}/{r}/git/trees/main?recursive=1 of a repository with 20,000
// files (1,000 directories of 20): the first answer (one `git ls-tree -r -t -l`),
// then the warm request rate, against a bare node:http server returning the same
// JSON body from memory in the same run.
import { fmt, startTrunkline, warmAgainstBaseline, warmLines } from './_lib.js';
import { BENCH_ADMIN, call, setupRepo } from './_gitea.js';
import { afterIdle, importAndPush } from './_git-import.js';

const FILES = Number(process.env.BENCH_FILES ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

const server = await startTrunkline(BENCH_ADMIN);
const { auth, owner, repo } = await setupRepo(server.url, 'bench-trees', { autoInit: false });
const token = auth.authorization!.slice('token '.length);
const files: Record<string, string> = {};
for (let i = 0; i < FILES; i++) files[`dir-${String(Math.floor(i / 20)).padStart(4, '0')}/file-${i}.md`] = `entry ${i}\n`;
const push = new URL(`${server.url}/${owner}/${repo}.git`);
push.username = owner;
push.password = token;
importAndPush(push.href, [{ files, message: 'twenty thousand files' }]);

const path = `/api/v1/repos/${owner}/${repo}/git/trees/main?recursive=1`;
const cold = await afterIdle(() => call(`${server.url}${path}`, 'GET', auth));
if (cold.status !== 200 || cold.body.total_count !== FILES + FILES / 20) throw new Error(`tree: ${cold.status} ${cold.text.slice(0, 200)}`);
const warm = await call(`${server.url}${path}`, 'GET', auth);
const { ours, bare: base } = await warmAgainstBaseline(server, `${server.url}${path}`, auth, warm.text, SECONDS);
console.log(`GET git/trees/main?recursive=1, ${FILES} files (${cold.body.total_count} entries, first page of 1,000: ${fmt(warm.text.length / 1024, 0)} KiB, 8 connections, ${SECONDS} s)`);
console.log(`  first answer   ${fmt(cold.ms, 0)} ms (one ls-tree of the whole tree)`);
console.log(`  warm           ${fmt(warm.ms, 1)} ms single request; ${fmt(ours.rps, 0)} req/s, p99 ${ours.p99} ms`);
for (const line of warmLines(ours, base)) console.log(line);
