import type { ModelOf } from '../../../protocol/model.js';
import type { ConfigTuple } from '../../../protocol/ari/models/asterisk.js';
import type { AsteriskConfigRepo } from '../../db/repos/asterisk-config-repo.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { endpointFromFields, FixtureError, type EndpointFixture, type Fixtures } from '../fixtures.js';
import { checkField, endpointFields, fixtureEndpointValues, PJSIP_FIELDS, valuesOf } from './pjsip-fields.js';

type Tuple = ModelOf<typeof ConfigTuple>;
type ConfigRepo = Pick<AsteriskConfigRepo, 'configObjects' | 'putConfigObject' | 'removeConfigObject'>;

/** The configuration class we serve, and the module that provides it. */
const PJSIP = 'res_pjsip';
const PJSIP_MODULE = 'res_pjsip.so';
/** Ids an endpoint name can take (PJSIP/<id>): no spaces, controls, `/`, `@`, `;` or `,`, and not a dot segment. */
const ID = /^[^\s\x00-\x1f\x7f/@;,]{1,80}$/;

interface StoredObject {
  id: string;
  /** The attributes that were set (the rest take their defaults). */
  set: Record<string, string>;
}

/**
 * ARI's dynamic configuration for res_pjsip: endpoint, aor and auth objects
 * made at run time, kept in SQLite. An endpoint object is an endpoint of the
 * simulation from the moment it is made (it joins the endpoint directory,
 * `fixtures.endpoints`, that channels, GET /endpoints and device states
 * read); changing it changes how new calls to it go; deleting it refuses new
 * calls while live ones go on, as in Asterisk; a change that moves an
 * endpoint's state (sim_state) is announced as a registration's is. The
 * fixture endpoints are readable here and, like objects of a read-only
 * configuration file in Asterisk, cannot be changed (403). AORs and auth objects are kept and
 * returned; they drive nothing. Ids are matched without regard to case, as
 * endpoint names are. The class disappears (404) while res_pjsip.so is unloaded.
 */
export class DynamicConfig {
  /** Objects made here, by `<type>/<id in lower case>`. */
  private readonly objects = new Map<string, StoredObject>();
  /** Directory entries of deleted endpoints: one made again reuses its entry, which others may still hold. */
  private readonly retired = new Map<string, EndpointFixture>();
  /** How many objects of each type are kept. */
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly fixtures: Pick<Fixtures, 'endpoints' | 'dialplan'>,
    private readonly repo: ConfigRepo,
    private readonly modules: { isRunning(name: string): boolean },
    /** Runs a change of an existing endpoint's entry and announces the state it moves (Registrations). */
    private readonly endpointState: { reconfigure(key: string, change: () => void): void },
    /** Most objects of one type kept (ARI_MAX_STORED_OBJECTS); changing a kept one always works. */
    private readonly maxPerType: number,
  ) {
    for (const row of repo.configObjects()) {
      if (row.configClass !== PJSIP || !Object.hasOwn(PJSIP_FIELDS, row.objectType)) continue;
      // A fixture endpoint of the same name (added to the fixtures later) wins over the stored object.
      if (row.objectType === 'endpoint' && this.fixtures.endpoints.has(`pjsip/${row.id.toLowerCase()}`)) continue;
      if (row.objectType === 'endpoint') {
        try {
          this.publish(row.id, valuesOf('endpoint', row.fields));
        } catch (err) {
          // Stored by an older version under rules that no longer hold: left out rather than refusing to start.
          if (err instanceof FixtureError) continue;
          throw err;
        }
      }
      this.objects.set(key(row.objectType, row.id), { id: row.id, set: row.fields });
      this.count(row.objectType, 1);
    }
  }

  get(configClass: string, objectType: string, id: string): Tuple[] {
    this.checkType(configClass, objectType);
    const values = this.values(objectType, id);
    if (!values) throw notFound(`Object with id '${id}' not found`);
    return tuples(values);
  }

  /** Creates the object when it is new, or changes the attributes given; answers every attribute. */
  update(configClass: string, objectType: string, id: string, fields: unknown): Tuple[] {
    this.checkType(configClass, objectType);
    const existing = this.values(objectType, id);
    const created = !existing;
    if (fields === undefined && !created) throw badRequest(`Fields must be provided to update object '${id}'`);
    const failed = () => badRequest(`${created ? 'Creation' : 'Update'} of object '${id}' failed field value validation`);
    if (created && (!ID.test(id) || id === '.' || id === '..')) throw badRequest('Object ids are 1 to 80 characters without spaces, /, @, ; or ,');
    const changes = parseFields(objectType, fields, failed);
    if (objectType === 'endpoint' && changes.context !== undefined && !this.fixtures.dialplan.contexts.has(changes.context)) throw failed();
    const stored = this.objects.get(key(objectType, id));
    if (!created && !stored) throw forbidden(`Cannot update sorcery objects of type '${objectType}'`);
    if (!stored && (this.counts.get(objectType) ?? 0) >= this.maxPerType) throw badRequest(`There are already ${this.maxPerType} ${objectType} objects`);
    const obj: StoredObject = stored ? { id: stored.id, set: { ...stored.set, ...changes } } : { id, set: changes };
    const values = valuesOf(objectType, obj.set);
    if (objectType === 'endpoint') this.endpointState.reconfigure(`pjsip/${obj.id.toLowerCase()}`, () => this.publish(obj.id, values));
    this.objects.set(key(objectType, id), obj);
    if (!stored) this.count(objectType, 1);
    this.repo.putConfigObject({ configClass: PJSIP, objectType, id: obj.id, fields: obj.set });
    return tuples(values);
  }

  remove(configClass: string, objectType: string, id: string): void {
    this.checkType(configClass, objectType);
    if (!this.values(objectType, id)) throw notFound(`Object with id '${id}' not found`);
    const stored = this.objects.get(key(objectType, id));
    if (!stored) throw forbidden(`Could not delete object with id '${id}'`);
    this.objects.delete(key(objectType, id));
    this.count(objectType, -1);
    if (objectType === 'endpoint') {
      const dirKey = `pjsip/${id.toLowerCase()}`;
      this.retired.set(dirKey, this.fixtures.endpoints.get(dirKey)!);
      this.fixtures.endpoints.delete(dirKey);
    }
    this.repo.removeConfigObject(PJSIP, objectType, stored.id);
  }

  private count(objectType: string, by: number): void {
    this.counts.set(objectType, (this.counts.get(objectType) ?? 0) + by);
  }

  private checkType(configClass: string, objectType: string): void {
    if (configClass !== PJSIP || !this.modules.isRunning(PJSIP_MODULE)) throw notFound(`configClass '${configClass}' not found`);
    if (!Object.hasOwn(PJSIP_FIELDS, objectType)) throw notFound(`objectType '${objectType}' not found`);
  }

  /** The object's attributes: one made here, or a fixture endpoint. */
  private values(objectType: string, id: string): Record<string, string> | undefined {
    const stored = this.objects.get(key(objectType, id));
    if (stored) return valuesOf(objectType, stored.set);
    const fixture = objectType === 'endpoint' ? this.fixtures.endpoints.get(`pjsip/${id.toLowerCase()}`) : undefined;
    return fixture ? fixtureEndpointValues(fixture) : undefined;
  }

  /** Puts the endpoint in the directory, changing the entry in place when it is there (holders see the change). */
  private publish(id: string, values: Record<string, string>): void {
    const made: EndpointFixture = endpointFromFields('PJSIP', id, endpointFields(values));
    const dirKey = `pjsip/${id.toLowerCase()}`;
    const current = this.fixtures.endpoints.get(dirKey);
    if (current) return void Object.assign(current, made, { resource: current.resource, key: current.key });
    const entry = this.retired.get(dirKey);
    this.retired.delete(dirKey);
    this.fixtures.endpoints.set(dirKey, entry ? Object.assign(entry, made) : made);
  }
}

const key = (type: string, id: string) => `${type}/${id.toLowerCase()}`;
const tuples = (values: Record<string, string>): Tuple[] => Object.entries(values).map(([attribute, value]) => ({ attribute, value }));

/** `[{attribute, value}, …]` → attribute → kept value; anything else fails validation. */
function parseFields(type: string, fields: unknown, failed: () => Error): Record<string, string> {
  const out: Record<string, string> = {};
  if (fields === undefined) return out;
  if (!Array.isArray(fields)) throw failed();
  for (const item of fields) {
    const { attribute, value } = (item ?? {}) as { attribute?: unknown; value?: unknown };
    if (typeof attribute !== 'string' || typeof value !== 'string') throw failed();
    const kept = checkField(type, attribute, value);
    if (kept === undefined) throw failed();
    out[attribute] = kept;
  }
  return out;
}
