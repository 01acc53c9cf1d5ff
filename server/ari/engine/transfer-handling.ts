import type { EndpointFixture } from '../fixtures.js';
import type { Channel, TransferHandling } from './channel.js';

/** Who carries out a transfer the channel's far end asks for: what PJSIP_TRANSFER_HANDLING() set on it, else its endpoint's transfer_handling. */
export function transferHandlingOf(ch: Channel, endpoints: ReadonlyMap<string, EndpointFixture>): TransferHandling {
  return ch.d.transferHandling ?? endpoints.get(ch.d.endpoint.toLowerCase())?.transferHandling ?? 'core';
}

/**
 * The mode PJSIP_TRANSFER_HANDLING() is written with: the value written
 * (`Set(PJSIP_TRANSFER_HANDLING()=ari-only)`), or, when that is empty, the
 * argument (`PJSIP_TRANSFER_HANDLING(ari-only)`); undefined for anything else.
 */
export function transferHandlingWritten(arg: string | undefined, value: string): TransferHandling | undefined {
  const mode = (value.trim() || (arg ?? '').trim()).toLowerCase();
  return mode === 'core' || mode === 'ari-only' ? mode : undefined;
}
