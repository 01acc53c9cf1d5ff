import type { Logger } from '../../log.js';
import type { Channel, QueuedCommand } from './channel.js';
import type { GroupCommit } from './group-commit.js';

/** Who runs a stored command when its turn comes (the control module). */
export type CommandRunner = (ch: Channel, cmd: QueuedCommand) => void | Promise<void>;

/**
 * Stasis control commands on a channel's queue. A stored command's answer
 * leaves before it runs, so it is part of the channel's record until it
 * starts: committed with the answer, and run again after a restart.
 */
export class StoredCommands {
  private runner: CommandRunner | undefined;

  constructor(
    private readonly log: Logger,
    private readonly commits: GroupCommit,
  ) {}

  /** Registers who runs stored commands. */
  onCommand(runner: CommandRunner): void {
    this.runner = runner;
  }

  /** Queues a command whose answer waits for it (see CommandQueue). */
  enqueue(ch: Channel, cmd: () => void | Promise<void>): Promise<void> {
    return ch.rt.queue.enqueue(cmd);
  }

  /** Stores a command on the channel and queues it; its answer does not wait for it. */
  enqueueCommand(ch: Channel, cmd: QueuedCommand): void {
    ch.d.queued.push(cmd);
    this.commits.touch(ch);
    this.requeue(ch, cmd);
  }

  /** Queues a command that is already in the channel's record (a new one, or one restored after a restart). */
  requeue(ch: Channel, cmd: QueuedCommand): void {
    ch.rt.queue
      .enqueue(() => {
        const i = ch.d.queued.indexOf(cmd);
        if (i >= 0) {
          ch.d.queued.splice(i, 1);
          this.commits.touch(ch);
        }
        return this.runner?.(ch, cmd);
      })
      .catch((err: unknown) => {
        // Dropped because the channel left its app or hung up (as Asterisk drops its queue), or it failed: nobody waits for it.
        if (ch.d.ended === null && ch.inStasis) this.log.warn({ err, channel: ch.id, command: cmd.kind }, 'queued command failed');
      });
  }

  /** Fails every command still waiting in the channel's queue (it left the app, or hung up). */
  abort(ch: Channel, makeError: () => unknown): void {
    ch.rt.queue.abort(makeError);
    if (ch.d.queued.length) {
      ch.d.queued = [];
      this.commits.touch(ch);
    }
  }
}
