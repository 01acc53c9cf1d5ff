import { defineModel, f, optional } from '../../model.js';

export const Variable = defineModel('Variable', 'The value of a channel variable', {
  value: f.string('The value of the variable requested'),
});

export const BuildInfo = defineModel('BuildInfo', 'Info about how the server was built', {
  os: f.string('OS the server was built on.'),
  kernel: f.string('Kernel version the server was built on.'),
  options: f.string('Compile time options, or empty string if default.'),
  machine: f.string('Machine architecture (x86_64, i686, ppc, etc.)'),
  date: f.string('Date and time when the server was built.'),
  user: f.string('Username that built the server'),
});

export const SystemInfo = defineModel('SystemInfo', 'Info about the server', {
  version: f.string('Server version.'),
  entity_id: f.string(),
});

export const SetId = defineModel('SetId', 'Effective user/group id', {
  user: f.string('Effective user id.'),
  group: f.string('Effective group id.'),
});

export const ConfigInfo = defineModel('ConfigInfo', 'Info about server configuration', {
  name: f.string('Server system name.'),
  default_language: f.string('Default language for media playback.'),
  max_channels: optional(f.int('Maximum number of simultaneous channels.')),
  max_open_files: optional(f.int('Maximum number of open file handles (files, sockets).')),
  max_load: optional(f.double('Maximum load avg on system.')),
  setid: f.ref(SetId, 'Effective user/group id for running the server.'),
});

export const StatusInfo = defineModel('StatusInfo', 'Info about the server status', {
  startup_time: f.date('Time when the server was started.'),
  last_reload_time: f.date('Time when the server was last reloaded.'),
});

export const AsteriskInfo = defineModel('AsteriskInfo', 'Server system information', {
  build: optional(f.ref(BuildInfo, 'Info about how the server was built')),
  system: optional(f.ref(SystemInfo, 'Info about the system running the server')),
  config: optional(f.ref(ConfigInfo, 'Info about server configuration')),
  status: optional(f.ref(StatusInfo, 'Info about server status')),
});

export const AsteriskPing = defineModel('AsteriskPing', 'Server ping information', {
  asterisk_id: f.string('The server id'),
  ping: f.string('Always string value is pong'),
  timestamp: f.string('The timestamp string of request received time'),
});
