import { useCallback, useRef, useState } from 'preact/hooks';
import { memo } from '../memo.js';
import { useObservable } from '../observable.js';
import { useRowWindow } from '../row-window.js';
import { toJsonLines, type EventLogStore, type LogEntry, type LogFilter } from './event-log-store.js';

/** A short line about the event: the channel (or other object) it concerns and its most telling field. */
function summary(e: LogEntry['event']): string {
  const parts: string[] = [];
  // Dial names the channel dialled as `peer`.
  const ch = (e.channel ?? e.peer) as { name?: string; state?: string } | undefined;
  if (ch?.name) parts.push(ch.name);
  for (const key of ['digit', 'duration_ms', 'dialstatus', 'cause', 'variable', 'value', 'args']) {
    if (e[key] !== undefined && e[key] !== '') parts.push(`${key}=${JSON.stringify(e[key])}`);
  }
  if (e.type === 'ChannelStateChange' && ch?.state) parts.push(`state=${ch.state}`);
  const other = (e.bridge ?? e.playback ?? e.recording ?? e.endpoint ?? e.device_state) as { id?: string; name?: string; resource?: string; state?: string } | undefined;
  if (other) parts.push(String(other.id ?? other.name ?? other.resource ?? ''));
  return parts.join(' ');
}

/** Offers `text` as a file download (a blob: URL clicked through a temporary link). */
function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A filter chosen from the values seen so far ("all" first). */
function Choice(p: { label: string; name: string; value: string; values: Set<string>; onChange: (e: { currentTarget: { value: string } }) => void }) {
  return (
    <label>{p.label}
      <select name={p.name} value={p.value} onChange={p.onChange}>
        <option value="">all</option>
        {[...p.values].sort().map((v) => <option key={v} value={v}>{v}</option>)}
      </select>
    </label>
  );
}

/** Each log line's height in pixels (console.css gives `.log-entry td` the same), so a line's place is known without drawing it. */
export const LOG_ROW_PX = 24;

/** One log line; drawn again only when it is opened or closed (a logged event never changes). */
const LogLine = memo(({ entry: e, open, onToggle }: { entry: LogEntry; open: boolean; onToggle: (seq: number) => void }) => (
  <tr class={`log-entry${open ? ' open' : ''}`} data-seq={e.seq} data-type={e.event.type} onClick={() => onToggle(e.seq)}>
    <td class="muted">{e.event.timestamp ?? ''}</td>
    <td>{e.app}</td>
    <td class="type">{e.event.type}</td>
    <td class="summary">{summary(e.event)}</td>
  </tr>
));

/**
 * The event log: newest at the bottom, filters, pause and resume, export as JSON lines of exactly
 * what is shown. Only the lines in view are drawn (the log keeps thousands); the one clicked opens
 * below the list as its JSON.
 */
export function EventLogView({ log }: { log: EventLogStore }) {
  useObservable(log);
  const [filter, setFilter] = useState<LogFilter>({ app: '', channel: '', type: '' });
  const [open, setOpen] = useState<number | undefined>();
  const list = useRef<HTMLDivElement>(null);
  const shown = log.shown(filter);
  const win = useRowWindow(list, shown.length, LOG_ROW_PX);
  const toggle = useCallback((seq: number) => setOpen((was) => (was === seq ? undefined : seq)), []);
  const opened = open === undefined ? undefined : shown.find((e) => e.seq === open);

  const set = (k: keyof LogFilter) => (e: { currentTarget: { value: string } }) => setFilter({ ...filter, [k]: e.currentTarget.value });
  return (
    <section class="panel event-log" id="event-log">
      <form class="inline filters" onSubmit={(e) => e.preventDefault()}>
        <Choice label="Application" name="filter-app" value={filter.app} values={log.apps} onChange={set('app')} />
        <label>Channel <input name="filter-channel" placeholder="id or name" value={filter.channel} onInput={set('channel')} /></label>
        <Choice label="Type" name="filter-type" value={filter.type} values={log.types} onChange={set('type')} />
        {log.paused ? (
          <button type="button" id="log-resume" onClick={() => log.resume()}>Resume ({log.waiting} new)</button>
        ) : (
          <button type="button" id="log-pause" onClick={() => log.pause()}>Pause</button>
        )}
        <button type="button" id="log-export" onClick={() => download('trunkline-events.jsonl', toJsonLines(shown))}>Export {shown.length} as JSON lines</button>
        <button type="button" id="log-clear" onClick={() => log.clear()}>Clear</button>
        <span class="muted" id="log-counts">{shown.length} shown · {log.size} kept{log.paused ? ` · paused, ${log.waiting} waiting` : ''}</span>
      </form>
      <div class="log-lines" ref={list} data-following={String(win.following)}>
        <div class="log-sizer" style={{ height: `${win.total}px` }}>
          <table class="log-table" style={{ transform: `translateY(${win.offset}px)` }}>
            <colgroup><col class="at" /><col class="app" /><col class="type" /><col /></colgroup>
            <tbody>
              {shown.slice(win.first, win.last).map((e) => <LogLine key={e.seq} entry={e} open={e.seq === open} onToggle={toggle} />)}
            </tbody>
          </table>
        </div>
      </div>
      {opened && (
        <div class="log-json" data-seq={opened.seq}>
          <pre>{JSON.stringify(opened.event, null, 2)}</pre>
        </div>
      )}
    </section>
  );
}
