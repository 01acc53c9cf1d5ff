/** The parts of ARI's models the console shows (the server sends more). */
export interface CallerId {
  name: string;
  number: string;
}

export interface Channel {
  id: string;
  name: string;
  state: string;
  caller: CallerId;
  connected: CallerId;
  dialplan: { context: string; exten: string; priority: number; app_name?: string; app_data?: string };
  creationtime: string;
  channelvars?: Record<string, string>;
}

/** A channel as the console knows it: the application it was seen in, and what the far end is doing. */
export interface LiveChannel extends Channel {
  app?: string;
  held?: boolean;
  talking?: boolean;
}

export interface Bridge {
  id: string;
  technology: string;
  bridge_type: string;
  bridge_class: string;
  name: string;
  channels: string[];
}

export interface Playback {
  id: string;
  media_uri: string;
  target_uri: string;
  state: string;
}

export interface LiveRecording {
  name: string;
  format: string;
  target_uri: string;
  state: string;
}

export interface Endpoint {
  technology: string;
  resource: string;
  state?: string;
  channel_ids: string[];
}

export interface DeviceState {
  name: string;
  state: string;
}

export interface Application {
  name: string;
  channel_ids: string[];
  bridge_ids: string[];
}

/** An event as the tap delivers it: the application's name and the frame its socket was sent. */
export interface TapFrame {
  app: string;
  event: AriEvent;
}

export interface AriEvent {
  type: string;
  timestamp?: string;
  application?: string;
  [key: string]: unknown;
}
