/**
 * Commands run one at a time, as Asterisk's control queue does for a
 * channel: a command that takes time (sendDTMF, a playback, a recording)
 * holds back the ones queued after it. An idle queue runs a command at once.
 */
export class CommandQueue {
  private readonly items: Array<{ run: () => Promise<void>; reject: (err: unknown) => void }> = [];
  private busy = false;

  enqueue(cmd: () => void | Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.items.push({
        run: async () => {
          try {
            await cmd();
            resolve();
          } catch (err) {
            reject(err);
          }
        },
        reject,
      });
      if (!this.busy) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.busy = true;
    while (this.items.length) await this.items.shift()!.run();
    this.busy = false;
  }

  /** Fails every command still waiting (not the one running). */
  abort(makeError: () => unknown): void {
    if (!this.items.length) return;
    const pending = this.items.splice(0);
    const err = makeError();
    for (const item of pending) item.reject(err);
  }

  get idle(): boolean {
    return !this.busy && this.items.length === 0;
  }
}
