import { Failure } from './args.js';

/** Reads everything piped to stdin. */
async function readAll(stdin: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads one line typed at a terminal without echoing it; Ctrl-C or Ctrl-D give up. */
function readHidden(stdin: NodeJS.ReadStream, prompt: (text: string) => void): Promise<string> {
  prompt('New password: ');
  return new Promise((resolve, reject) => {
    let typed = '';
    stdin.setRawMode(true);
    stdin.resume();
    const done = (err?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      prompt('\n');
      if (err) reject(err);
      else resolve(typed);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003' || ch === '\u0004') return done(new Failure('no password given'));
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/**
 * The new password, from stdin: typed at a terminal (not echoed), or piped
 * (`printf '%s\n' "$PW" | npm run admin -- …`), one line whose line ending
 * is not part of it.
 */
export async function readPassword(stdin: NodeJS.ReadStream, prompt: (text: string) => void): Promise<string> {
  const raw = stdin.isTTY ? await readHidden(stdin, prompt) : await readAll(stdin);
  const password = raw.replace(/\r?\n$/, '');
  if (/[\r\n]/.test(password)) throw new Failure('the password on stdin must be one line');
  if (!password) throw new Failure('no password on stdin');
  return password;
}
