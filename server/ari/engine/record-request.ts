/** A recording as a client asked for it (channel or bridge record operation). */
export interface RecordRequest {
  name: string;
  format: string;
  maxDurationSeconds: number;
  maxSilenceSeconds: number;
  ifExists: string;
  beep: boolean;
  terminateOn: string;
}
