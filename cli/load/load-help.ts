import { LOAD_LIMITS } from './load-args.js';

/** The text `trunkline load --help` prints. */
export const LOAD_HELP = `Usage: trunkline load [--url URL --user NAME:PASSWORD] --extension EXT[@CONTEXT]
                      [--endpoint PJSIP/alice] [--app NAME] --calls N --rate R --concurrent C
                      [--duration S] [--script FILE] [--command "node app.js"]
                      [--json FILE|-] [--csv FILE|-] [--quiet] [--time-scale X]
                      [--call-timeout S] [--max-failed-ratio X]

Places inbound calls into a Stasis application through the simulation API and reports what
SIPp users read: attempts, answers, failures by hangup cause, ASR, ACD and set-up times.

Where the calls go
  --url URL             a running Trunkline (its base URL; /ari is added for ARI). Without it
                        the tool starts its own server on the real clock and stops it at the end
  --user NAME:PASSWORD  ARI user for --url (default asterisk:asterisk); it must be allowed to write
  --time-scale X        without --url: simulated time runs X times faster than the wall clock
                        (${LOAD_LIMITS.timeScaleMin} to ${LOAD_LIMITS.timeScaleMax}; default 1)
  --command "CMD ARGS"  start the app under test against the server, with ARI_URL (the base URL),
                        ARI_USERNAME, ARI_PASSWORD and ARI_APP set, wait until its event socket
                        is connected, and stop it at the end (words split at blanks; quotes group)
  --extension EXT[@CONTEXT]  what the callers dial (required), e.g. 1000@default
  --endpoint TECH/RES   who calls (default PJSIP/alice)
  --app NAME            the ARI application: set as STASIS_APP on every call (default: the
                        server's global STASIS_APP, where the bundled dialplan sends calls)

How many and how fast (rates and durations are wall-clock)
  --calls N             stop placing after N calls (1 to ${LOAD_LIMITS.calls})
  --duration S          stop placing after S seconds (0.1 to ${LOAD_LIMITS.durationS}); with --calls, whichever comes first
  --rate R              calls placed per second, on a steady schedule; a call held back by the
                        cap moves the schedule on, so calls never bunch up (0.01 to ${LOAD_LIMITS.rate})
  --concurrent C        at most C calls up at once: the next call waits for one to end (1 to ${LOAD_LIMITS.concurrent})
  --call-timeout S      a call still up S seconds after it was placed is hung up by its caller
                        (cause 16) and counted as timed out (1 to ${LOAD_LIMITS.callTimeoutS}; default 60)
  --script FILE         what each caller does: a YAML or JSON list of far-end script steps (or
                        {script: [...]}), checked as POST /sim/calls checks them. Default: wait
                        1000 ms, press 1, wait 3000 ms, hang up with cause 16 (simulated time)

Output
  a progress line on stderr while it runs (rewritten in place on a terminal, otherwise a line
  every 2 s; --quiet: none), the table on stdout (on stderr when --json - or --csv - take stdout)
  --json FILE|-         the report as JSON
  --csv FILE|-          the report as CSV: a header line and one line of values
  --max-failed-ratio X  exit 1 when more than X (0 to 1) of the attempted calls failed

What the figures mean. Times are milliseconds between the server's own timestamps (events,
creationtime, the call history), so the tool's clock never enters them; "placed" is the
channel's creationtime. The load runs on the real clock, where those timestamps are wall time:
--time-scale shortens what the callers wait and the fixtures' delays, not the figures' unit.
  attempted             placeCall requests sent
  answered              calls whose channel was answered (in the dialplan or by the app)
  failed                attempted calls never answered: refused by the server, or ended first;
                        grouped by hangup cause (Q.850 code and text)
  ASR                   answered / attempted
  ACD                   mean time from answer to hangup of the answered calls
  placed → StasisStart  creationtime to the StasisStart the app was sent
  placed → answer       creationtime to the answer (ChannelStateChange to Up, or the call
                        history's answertime for calls answered before they reached the app)
  digit → app reaction  from the last ChannelDtmfReceived to the first event after it on that
                        channel that is the app's doing: PlaybackStarted, ChannelStateChange,
                        ChannelEnteredBridge, an ARI hangup (ChannelHangupRequest with soft) or
                        StasisEnd. Not measured once the caller has hung up; PlaybackFinished
                        does not count (a prompt ending by itself looks the same)
  placeCall request     wall ms from sending placeCall to its answer, on the tool's clock
  Percentiles are nearest-rank (p50, p95, p99 are measured values).

Exit status: 0 the run completed (even with failed calls), 1 --max-failed-ratio exceeded,
2 bad arguments or script (or a first call the server refuses as a bad request), 3 the server
or the app could not be reached or started, or went away during the run (the report says so).
`;
