import { defineModel, f, optional } from '../../model.js';

export const Variable = defineModel('Variable', 'A variable as read.', {
  value: f.string('The value read.'),
});

export const Variables = defineModel('Variables', 'Several variables as read, name to value.', {
  variables: f.object('Each name asked for that is set, with its value.'),
});

export const BuildInfo = defineModel('BuildInfo', 'Host facts; we have no build of our own to describe, so these are the host values.', {
  os: f.string('Operating system name of the host.'),
  kernel: f.string('Kernel release of the host.'),
  options: f.string('Always empty.'),
  machine: f.string('CPU architecture of the host (x86_64, arm64, …).'),
  date: f.string('When the server started, reported in place of a build date.'),
  user: f.string('User the server runs as.'),
});

export const SystemInfo = defineModel('SystemInfo', 'Version and identity of the server.', {
  version: f.string('An Asterisk-style version whose suffix names us (22.0.0-trunkline).'),
  entity_id: f.string(),
});

export const SetId = defineModel('SetId', 'Who the process runs as.', {
  user: f.string('User name.'),
  group: f.string('Group, reported as the user name.'),
});

export const ConfigInfo = defineModel('ConfigInfo', 'Settings the server runs with.', {
  name: f.string('Host name.'),
  default_language: f.string('Language new channels start with (en).'),
  max_channels: optional(f.int('Limit on live channels, when one is configured.')),
  max_open_files: optional(f.int('Never sent.')),
  max_load: optional(f.double('Never sent.')),
  setid: f.ref(SetId, 'Who the process runs as.'),
});

export const StatusInfo = defineModel('StatusInfo', 'When the server started and last reloaded a module.', {
  startup_time: f.date('When this process started.'),
  last_reload_time: f.date('When a module was last reloaded (PUT asterisk/modules/{moduleName}); the start time until then.'),
});

export const AsteriskInfo = defineModel('AsteriskInfo', 'The sections of GET /asterisk/info; only those asked for are present.', {
  build: optional(f.ref(BuildInfo, 'Host facts.')),
  system: optional(f.ref(SystemInfo, 'Version and identity.')),
  config: optional(f.ref(ConfigInfo, 'Settings.')),
  status: optional(f.ref(StatusInfo, 'Start times.')),
});

export const AsteriskPing = defineModel('AsteriskPing', 'The answer to a ping.', {
  asterisk_id: f.string('Id of this server, as in the asterisk_id of events.'),
  ping: f.string('Always pong.'),
  timestamp: f.string('When the ping was answered.'),
});

/** What a module reports as its state: loaded (serving) or not. */
export const MODULE_STATUSES = ['Running', 'Not Running'] as const;
/** How well a module is looked after, in Asterisk's terms. */
export const SUPPORT_LEVELS = ['core', 'extended', 'deprecated', 'unknown'] as const;

export const Module = defineModel('Module', 'One module of the server\'s fixed catalogue and its state.', {
  name: f.string('File name of the module (app_dial.so).'),
  description: f.string('What the module provides.'),
  use_count: f.int('How many loaded modules and live channels depend on it; a module in use cannot be unloaded.'),
  status: f.oneOf(MODULE_STATUSES, 'Running when loaded, Not Running after an unload.'),
  support_level: f.oneOf(SUPPORT_LEVELS, 'core, extended, deprecated or unknown.'),
});

/** Kinds of log channel, by where their lines would go. */
export const LOG_CHANNEL_TYPES = ['Console', 'File', 'Syslog'] as const;

export const LogChannel = defineModel('LogChannel', 'A log channel: where log lines of chosen levels go.', {
  channel: f.string('Where it writes: a file path under the log directory, syslog.<facility>, or empty for the console.'),
  type: f.oneOf(LOG_CHANNEL_TYPES, 'Console, File or Syslog.'),
  status: f.oneOf(['Enabled', 'Disabled'] as const, 'Always Enabled here.'),
  configuration: f.string('Its levels in level order, each followed by a space (NOTICE WARNING ERROR ).'),
});

export const ConfigTuple = defineModel('ConfigTuple', 'One attribute of a configuration object and its value.', {
  attribute: f.string('Attribute name (context, callerid, sim_answer_after_ms, …).'),
  value: f.string('Its value, as text.'),
});
