/**
 * The decisions of one decision surface, for every reader that meets one (a .json file, an NDJSON
 * line, an evidence event in a log or a bundle): the array check, the event-data schema rule, and
 * each decision's shape, location and index. Problems go to `fail`; valid decisions are prepared
 * (reduced to what verification reads) as they are read.
 */
import { prepareDecision } from '../core/decision.js';
import type { JsonObject } from '../core/json.js';
import type { Location } from '../core/location.js';
import { type DecisionInput, SURFACE_SCHEMA } from '../core/model.js';
import { unsafeSubjectNumber } from '../core/projection.js';
import { quote } from '../core/text.js';
import type { Instant } from '../core/time.js';
import { checkDecision } from './shapes.js';

export type SurfaceVia = 'schema' | 'event';

/** A run's decisions as they are read: the valid ones, and how many were seen (valid or not). */
export class RunDecisions {
  readonly decisions: DecisionInput[] = [];
  seen = 0;
  /** Past the limit: the run is rejected (one error said), and no further decision is read. */
  full = false;
  /**
   * The server session decisions are read in now (DecisionInput.session): a server log's reader
   * numbers its server_start lines here, so a surface line between them is of the session it sits
   * in; 0 for a run without sessions.
   */
  session = 0;
  /** @param max the most decisions one run may hold (ReadLimits.maxDecisions) */
  constructor(readonly max: number) {}

  /** Room for `count` more decisions; past the limit, once, the located error that rejects the run. */
  admit(count: number, at: () => Location, fail: (loc: Location, message: string) => void): boolean {
    if (this.full) return false;
    if (this.seen + count <= this.max) return true;
    // One located error, and nothing more is prepared: memory stays bounded by the limit.
    this.full = true;
    fail(at(), `the run holds more than ${this.max} decisions (the limit per run); it is not read`);
    return false;
  }
}

/**
 * @param payload  the surface object (the document itself, or an event's `data`)
 * @param via      how the surface was named: its own `schema`, or an evidence event's `type`
 * @param locate   the location of decision j of this surface (null: the surface's own location), or
 *                 of the member at `path` in it where the reader can tell (else the decision's)
 * @param run      the run's decisions so far: valid ones are appended; every decision, valid or
 *                 not, takes the next index
 * @param time     the event's time, for a surface an evidence event carries (its decisions' time); null otherwise
 * @returns false when the surface itself is unusable (then nothing was appended)
 */
export function readSurface(
  payload: JsonObject,
  via: SurfaceVia,
  locate: (j: number | null, path?: readonly (string | number)[]) => Location,
  run: RunDecisions,
  fail: (loc: Location, message: string) => void,
  time: Instant | null = null,
): boolean {
  // Inside a surface event, data.schema must be exactly the surface's (semantics §1): absent is not it either.
  if (via === 'event' && payload['schema'] !== SURFACE_SCHEMA) {
    const found = JSON.stringify(typeof payload['schema'] === 'string' ? quote(payload['schema'], 120) : payload['schema']);
    const version =
      typeof payload['schema'] === 'string' && payload['schema'].trim().toLowerCase().startsWith('assay.tool_decision_surface');
    fail(
      locate(null),
      payload['schema'] === undefined
        ? `event data has no schema: a surface event's data.schema must be ${SURFACE_SCHEMA}`
        : version
          ? `event data has schema ${found}: unsupported version (this gate reads ${SURFACE_SCHEMA})`
          : `event data has schema ${found}, expected ${SURFACE_SCHEMA}`,
    );
    return false;
  }
  const list = payload['observed_tool_decisions'];
  if (!Array.isArray(list)) {
    fail(
      locate(null),
      via === 'event' ? `${SURFACE_SCHEMA} event data has no observed_tool_decisions array` : 'observed_tool_decisions is not an array',
    );
    return false;
  }
  if (!run.admit(list.length, () => locate(Math.max(0, run.max - run.seen)), fail)) return false;
  list.forEach((decision: unknown, j) => {
    const loc = locate(j);
    const index = run.seen++;
    const shape = checkDecision(decision);
    // A decision that breaks its shape rejects the run; the rest are still checked and reported.
    if (!shape.ok) {
      fail(loc, `decision ${index}: ${shape.reason}`);
      return;
    }
    // A subject number JSON.parse rounded could bind another target's record: the decision is refused at the number.
    const unsafe = unsafeSubjectNumber(decision as JsonObject);
    if (unsafe !== null) fail(locate(j, unsafe.path), `decision ${index}: ${unsafe.reason}`);
    else run.decisions.push(prepareDecision(loc, index, decision as JsonObject, time, null, run.session));
  });
  return true;
}
