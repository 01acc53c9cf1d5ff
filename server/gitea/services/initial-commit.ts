import type { UserRow } from '../../db/repos/user-repo.js';
import type { Files } from './files.js';
import type { RepoContext } from './repos.js';

/** `auto_init`: Gitea's first commit, a README from the default template. */
export async function initialCommit(files: Pick<Files, 'change'>, repo: RepoContext, doer: UserRow, name: string, description: string): Promise<void> {
  const readme = `# ${name}\n\n${description}`.trimEnd() + '\n';
  await files.change(repo, doer, {
    files: [{ operation: 'create', path: 'README.md', content: Buffer.from(readme) }],
    message: 'Initial commit',
    branch: repo.row.default_branch,
    newBranch: repo.row.default_branch,
  });
}
