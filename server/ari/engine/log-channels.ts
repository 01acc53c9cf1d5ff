import type { ModelOf } from '../../../protocol/model.js';
import type { LogChannel } from '../../../protocol/ari/models/asterisk.js';
import type { AsteriskConfigRepo } from '../../db/repos/asterisk-config-repo.js';
import { badRequest, conflict, notFound } from '../../errors.js';

type LogChannelModel = ModelOf<typeof LogChannel>;
type LogRepo = Pick<AsteriskConfigRepo, 'logChannels' | 'addLogChannel' | 'removeLogChannel'>;

/** Where file channels are said to write (nothing is written: see LogChannels). */
export const LOG_DIR = '/var/log/asterisk';
/** Asterisk's log levels, in the order a channel's configuration lists them. */
const LEVELS = ['DEBUG', 'TRACE', 'NOTICE', 'WARNING', 'ERROR', 'VERBOSE', 'DTMF'] as const;
const SYSLOG_FACILITIES = new Set(['auth', 'authpriv', 'cron', 'daemon', 'ftp', 'kern', 'lpr', 'mail', 'news', 'syslog', 'user', 'uucp', ...Array.from({ length: 8 }, (_, i) => `local${i}`)]);
/** The channels of our logger configuration, as Asterisk lists configured channels (last configured first). */
const CONFIGURED = [
  { name: 'messages.log', configuration: 'notice,warning,error' },
  { name: 'console', configuration: 'notice,warning,error' },
];
const MAX_NAME_BYTES = 255;

interface Entry {
  filename: string;
  type: LogChannelModel['type'];
  configuration: string;
  dynamic: boolean;
}

const isConsole = (name: string) => name.toLowerCase() === 'console';
const isSyslog = (name: string) => name.slice(0, 6).toLowerCase() === 'syslog';

/** The key a channel name stands for: the console's is empty, syslog's is the name, a file's is its path. */
function filenameOf(name: string): string {
  if (isConsole(name)) return '';
  if (isSyslog(name)) return name;
  return name.startsWith('/') ? name : `${LOG_DIR}/${name}`;
}

/** The levels a configuration turns on, as Asterisk lists them (each followed by a space). */
function levelsOf(configuration: string, type: Entry['type']): string {
  const on = new Set<string>();
  for (const word of configuration.split(',').map((w) => w.trim().toUpperCase())) {
    if (word === '*') LEVELS.forEach((l) => on.add(l));
    else if (/^VERBOSE\(\d+\)$/.test(word)) on.add('VERBOSE');
    else if ((LEVELS as readonly string[]).includes(word)) on.add(word);
  }
  if (type === 'Console') on.add('VERBOSE');
  return LEVELS.filter((l) => on.has(l)).map((l) => `${l} `).join('');
}

function entry(name: string, configuration: string, dynamic: boolean): Entry {
  const type = isConsole(name) ? 'Console' : isSyslog(name) ? 'Syslog' : 'File';
  return { filename: filenameOf(name), type, configuration, dynamic };
}

/**
 * Log channels as ARI manages them: the configured ones, and the ones added
 * at run time (kept in SQLite; Asterisk forgets those at a restart, we keep
 * them as we keep every other change made through ARI). They are records:
 * the server's own log (JSON lines on stdout) is not routed by them, and
 * rotating a file channel only checks that it is one.
 */
export class LogChannels {
  private readonly channels: Entry[] = [];

  constructor(
    private readonly repo: LogRepo,
    /** Most channels added at run time that are kept (ARI_MAX_STORED_OBJECTS). */
    private readonly maxAdded: number,
  ) {
    // Asterisk puts each new channel at the head of its list.
    for (const c of CONFIGURED) this.channels.push(entry(c.name, c.configuration, false));
    for (const row of repo.logChannels()) this.channels.unshift({ ...entry(row.filename, row.configuration, true), filename: row.filename });
  }

  list(): LogChannelModel[] {
    return this.channels.map((c) => ({ channel: c.filename, type: c.type, status: 'Enabled', configuration: levelsOf(c.configuration, c.type) }));
  }

  add(name: string, configuration: string | undefined): void {
    if (!configuration) throw badRequest('Configuration levels are required');
    checkName(name);
    if (this.find(name)) throw conflict('Log channel already exists');
    if (this.channels.filter((c) => c.dynamic).length >= this.maxAdded) throw badRequest(`There are already ${this.maxAdded} log channels added at run time`);
    const e = entry(name, configuration, true);
    this.channels.unshift(e);
    this.repo.addLogChannel({ filename: e.filename, configuration });
  }

  /** Only channels added at run time can be removed, as in Asterisk. */
  remove(name: string): void {
    const e = this.find(name);
    if (!e?.dynamic) throw notFound('Log channel does not exist');
    this.channels.splice(this.channels.indexOf(e), 1);
    this.repo.removeLogChannel(e.filename);
  }

  /** Only a file channel has something to rotate. */
  rotate(name: string): void {
    if (this.find(name)?.type !== 'File') throw notFound('Log channel does not exist');
  }

  private find(name: string): Entry | undefined {
    const filename = filenameOf(name);
    return this.channels.find((c) => c.filename === filename);
  }
}

/** Names that cannot be a channel: Asterisk would fail to open them (or, for syslog, know no such facility). */
function checkName(name: string): void {
  if (!name || Buffer.byteLength(name) > MAX_NAME_BYTES || /[\x00-\x1f\x7f]/.test(name) || name.split('/').some((s) => s === '..')) {
    throw badRequest('Log channel name cannot be used');
  }
  if (isSyslog(name)) {
    const dot = name.indexOf('.');
    const facility = dot >= 0 && dot < name.length - 1 ? name.slice(dot + 1) : 'local0';
    if (!SYSLOG_FACILITIES.has(facility.toLowerCase())) throw badRequest('Unknown syslog facility');
  }
}
