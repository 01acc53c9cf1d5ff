import { defineModel, f } from '../model.js';
import { defineOperation, query } from '../operation.js';

// The simulated clock: read it, and (on the virtual clock) move it on.

/** The most one advance may move the clock: one simulated day (`ms`, and `max_ms` of until=idle). */
export const MAX_ADVANCE_MS = 86_400_000;

export const SimClock = defineModel('SimClock', 'The clock the telephony engine runs on.', {
  mode: f.oneOf(['real', 'virtual'] as const, 'real: the system clock, sped up by SIM_TIME_SCALE; virtual: time moves only when advanced (SIM_CLOCK).'),
  now: f.date('The current instant on that clock, in the form of event timestamps.'),
  pending: f.int('Timers waiting for a later instant (answer delays, timeouts, playback and recording ends, the media frame ticker while media flows).'),
});

export const SimClockAdvanced = defineModel('SimClockAdvanced', 'Where an advance left the virtual clock.', {
  now: f.date('The clock\'s instant once everything due on the way has run and its events have been sent.'),
});

export const getSimClock = defineOperation({
  resource: 'sim', method: 'GET', path: '/clock', nickname: 'getClock',
  summary: 'Which clock runs the simulation, its current instant and how many timers wait ahead.',
  params: {},
  responseClass: 'SimClock', response: SimClock.schema, success: 200, errors: [],
});

export const advanceSimClock = defineOperation({
  resource: 'sim', method: 'POST', path: '/clock/advance', nickname: 'advanceClock',
  summary: 'Move the virtual clock on: every timer due on the way runs at its own instant, in order, and the answer waits until the events they caused are committed and sent to the applications.',
  notes: `Give either ms (move exactly that far) or until=idle (move from one due timer to the next until none is left, or until max_ms has passed). The clock moves one timer at a time, letting other requests in between, so a long advance does not hold up other clients; one request moves it at most ${MAX_ADVANCE_MS} ms (a simulated day), and until=idle without max_ms stops there too. Advances run one after another. Timers due at the current instant run without an advance, as a zero delay would.`,
  params: {
    ms: query.int({ description: 'Simulated milliseconds to move the clock by.', min: 0, max: MAX_ADVANCE_MS }),
    until: query.string({ description: 'idle: move on until no timer is left.', values: ['idle'] as const }),
    max_ms: query.int({ description: 'With until=idle: stop after this many simulated milliseconds even if timers are left.', min: 0, max: MAX_ADVANCE_MS }),
  },
  responseClass: 'SimClockAdvanced', response: SimClockAdvanced.schema, success: 200,
  errors: [{ code: 400, reason: 'Neither or both of ms and until, max_ms without until, a value out of range, or a real clock (SIM_CLOCK=real), which cannot be advanced.' }],
});

export const simClockOperations = [getSimClock, advanceSimClock] as const;
