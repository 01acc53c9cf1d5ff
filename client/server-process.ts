import { spawn, type ChildProcess } from 'node:child_process';

// The server as a child process: started with node, known to be ready once it
// prints its start-up line ("Trunkline listening on http://…"), and stopped with
// SIGTERM, then SIGKILL when it takes longer than a grace period.

const READY = /^Trunkline listening on (http:\/\/\S+) /m;
/** How much of the server's output is kept for error messages and output(). */
const KEEP_CHARS = 64 * 1024;

/** A started server process. */
export interface ServerProcess {
  /** Its base URL, as its start-up line gave it. */
  url: string;
  pid: number;
  /** The newest part of what it printed (stdout and stderr, as they came). */
  output(): string;
  /** Stops it: SIGTERM, SIGKILL after graceMs; resolves once it has exited. */
  stop(graceMs: number): Promise<void>;
  /** Kills it at once, synchronously (for process exit). */
  kill(): void;
}

export interface ServerSpawn {
  nodeArgs: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs: number;
}

class Tail {
  text = '';
  add(chunk: string) {
    this.text = (this.text + chunk).slice(-KEEP_CHARS);
  }
  lastLines(n: number) {
    return this.text.trimEnd().split('\n').slice(-n).join('\n');
  }
}

function unref(child: ChildProcess) {
  child.unref();
  for (const s of [child.stdout, child.stderr]) (s as unknown as { unref?: () => void } | null)?.unref?.();
}

/** Starts the server and resolves once it listens; rejects (with its output's tail) when it exits or does not start in time. */
export function startServerProcess(o: ServerSpawn): Promise<ServerProcess> {
  const child = spawn(process.execPath, o.nodeArgs, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const all = new Tail();
  const errors = new Tail();
  let head = '';
  let ready = false;
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ? `was killed by ${signal}` : `exited with code ${code}`)));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    all.add(d);
    errors.add(d);
  });
  const why = (what: string) => {
    const tail = errors.text.trim() ? errors.lastLines(20) : all.lastLines(20);
    return new Error(`Trunkline did not start: the server ${what}${tail ? `:\n${tail}` : ' without a word'}`);
  };

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(why(`did not print its start-up line within ${o.timeoutMs} ms`));
    }, o.timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(why(`could not be run (${err.message})`));
    });
    void exited.then((how) => {
      clearTimeout(timer);
      if (!ready) reject(why(how));
    });
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      all.add(d);
      if (ready) return;
      head = (head + d).slice(-KEEP_CHARS);
      const m = READY.exec(head);
      if (!m) return;
      ready = true;
      clearTimeout(timer);
      // A forgotten close() must not keep the test process alive; the exit hook ends the server then.
      unref(child);
      let stopping: Promise<void> | undefined;
      resolve({
        url: m[1]!,
        pid: child.pid!,
        output: () => all.text,
        kill: () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        },
        stop: (graceMs) =>
          (stopping ??= (async () => {
            if (child.exitCode !== null || child.signalCode !== null) return;
            child.ref();
            child.kill('SIGTERM');
            const late = setTimeout(() => child.kill('SIGKILL'), graceMs);
            await exited;
            clearTimeout(late);
          })()),
      });
    });
  });
}
