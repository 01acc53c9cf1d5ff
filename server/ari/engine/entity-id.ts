import type { MetaRepo } from '../../db/repos/meta-repo.js';
import type { IdSource } from '../time/id-source.js';

/** This server's entity id (Asterisk's EID), made once and kept in the meta table. */
export function loadEntityId(meta: MetaRepo, ids: IdSource): string {
  let eid = meta.get('entity_id');
  if (!eid) {
    // Asterisk's EID looks like a MAC address; a locally administered one is ours to make up.
    const b = Buffer.from(ids.hex(6), 'hex');
    b[0] = (b[0]! & 0xfe) | 0x02;
    eid = [...b].map((x) => x.toString(16).padStart(2, '0')).join(':');
    meta.set('entity_id', eid);
  }
  return eid;
}
