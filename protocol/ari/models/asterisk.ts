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

export const StatusInfo = defineModel('StatusInfo', 'When the server started.', {
  startup_time: f.date('When this process started.'),
  last_reload_time: f.date('Same as startup_time: there is no reload here.'),
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
