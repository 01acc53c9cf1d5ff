import { spawn, type ChildProcess } from 'node:child_process';
import { requestJson, type ScenarioHost } from './scenario-host.js';

/** How the app under test is started (the scenario's `app`, its cwd already resolved). */
export interface AppSpec {
  command: string;
  args?: string[] | undefined;
  env?: Record<string, string> | undefined;
  cwd: string;
  name: string;
  ready_timeout_ms?: number | undefined;
}

/** Lines of the app's output kept for the report (the newest). */
const KEEP_LINES = 40;
/** Wall milliseconds between SIGTERM and SIGKILL. */
const STOP_GRACE_MS = 3000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The app under test as a child process: started with the ARI settings in its environment, stopped at the end. */
export class AppProcess {
  /** The newest lines the app wrote (stdout and stderr together). */
  readonly output: string[] = [];
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exited: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    const keep = (chunk: Buffer) => {
      this.output.push(...chunk.toString().split('\n').filter(Boolean));
      if (this.output.length > KEEP_LINES) this.output.splice(0, this.output.length - KEEP_LINES);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve();
      });
      child.once('error', (err) => {
        this.output.push(`cannot start: ${err.message}`);
        this.exit ??= { code: null, signal: null };
        resolve();
      });
    });
  }

  /** Starts the app with ARI_URL, ARI_USERNAME, ARI_PASSWORD and ARI_APP set (over its own env). */
  static start(spec: AppSpec, host: ScenarioHost): AppProcess {
    const env = { ...process.env, ...spec.env, ARI_URL: host.url, ARI_USERNAME: host.ari.username, ARI_PASSWORD: host.ari.password, ARI_APP: spec.name };
    const child = spawn(spec.command, spec.args ?? [], { cwd: spec.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    return new AppProcess(child);
  }

  /**
   * Resolves once the app has an event socket connected (GET /ari/applications/{name} answers
   * 200: on a fresh server an application is known only once a socket serves it); throws when the
   * app exits first or `ready_timeout_ms` (wall; default 10 s) passes.
   */
  async waitReady(spec: AppSpec, host: ScenarioHost): Promise<void> {
    const limit = spec.ready_timeout_ms ?? 10_000;
    const started = Date.now();
    for (;;) {
      if (this.exit) throw new Error(`the app exited (${this.exit.signal ?? `code ${this.exit.code}`}) before connecting to the event socket as '${spec.name}'`);
      const r = await requestJson(host, 'GET', `/ari/applications/${encodeURIComponent(spec.name)}`);
      if (r.status === 200) return;
      if (Date.now() - started > limit) throw new Error(`the app did not connect an event socket for '${spec.name}' within ${limit} ms`);
      await sleep(20);
    }
  }

  /** SIGTERM, then SIGKILL if it has not exited after a grace period. */
  async stop(): Promise<void> {
    if (this.exit) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }
}
