// Delivery faults: what the sandbox does to the deliveries it makes (workflow events, test webhooks), beside the API
// faults of sandboxFaults.ts. One setting holds them all and stays until cleared; its seed makes every plan repeat
// exactly (deliveryPlan.ts). Set through the control API (POST /sandbox/faults with a delivery kind), `wfs sandbox
// fault`, a profile's "deliveryFaults", or the editor's Add Sandbox Delivery Fault command.
import { randomBytes } from 'node:crypto';
import { MAX_SEED } from './seededRandom';
import { said, saidOf, SaidError, type Said } from '../presentation/said';

/** A fault request the sandbox cannot take, naming the option at fault: core's Said (English in the CLI and the
 * sandbox's answers, worded in the extension). A RangeError by name, as before. */
class DeliveryFaultError extends SaidError {
  constructor(message: Said) {
    super(message);
    this.name = 'RangeError';
  }
}

export const DELIVERY_FAULT_KINDS = ['duplicate', 'reorder', 'delay', 'retry-storm', 'burst'] as const;
export type DeliveryFaultKind = (typeof DELIVERY_FAULT_KINDS)[number];

/** Which deliveries the faults apply to. */
const FAULT_TARGETS = ['all', 'workflow', 'test'] as const;
type FaultTarget = (typeof FAULT_TARGETS)[number];

export interface DeliveryFaults {
  seed: number;
  /** Extra copies of a group's events (a workflow's events, or one test webhook), same webhookId and body. */
  duplicate?: { copies: number; freshToken: boolean };
  /** A workflow's events held until it ends, then sent in another order. */
  reorder?: boolean;
  /** Each delivery held back: fixed when minMs equals maxMs, else a seeded value between them. */
  delay?: { minMs: number; maxMs: number };
  /** After a 5xx (or no answer), the service's retry schedule divided by this factor. */
  retryStorm?: { factor: number };
  /** Each delivery sent this many times at the same moment. */
  burst?: { count: number };
  to: FaultTarget;
}

const MAX_DUPLICATE_COPIES = 10;
export const MAX_FAULT_DELAY_MS = 60_000;
export const MAX_STORM_FACTOR = 1000;
const MAX_BURST = 50;

export function isDeliveryFaultKind(v: unknown): v is DeliveryFaultKind {
  return typeof v === 'string' && (DELIVERY_FAULT_KINDS as readonly string[]).includes(v);
}

/** A seed when none is given, said back to the caller so a run can be repeated. */
export function newSeed(): number {
  return randomBytes(4).readUInt32BE(0);
}

/** One delivery fault as a request states it: the kind and its own options. */
export interface DeliveryFaultRequest {
  fault: DeliveryFaultKind;
  /** duplicate: copies; burst: deliveries at once. */
  count?: unknown;
  freshToken?: unknown;
  /** delay: milliseconds, fixed, or the low end with maxMs. */
  delayMs?: unknown;
  maxDelayMs?: unknown;
  factor?: unknown;
  seed?: unknown;
  to?: unknown;
}

function int(v: unknown, name: string, min: number, max: number, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw new DeliveryFaultError(said('{0} must be an integer from {1} to {2}', name, min, max));
  return v;
}

/** The setting with one more fault laid over it (a fault of the same kind replaces the earlier one). Throws
 * RangeError naming the option at fault. */
export function withDeliveryFault(current: DeliveryFaults | undefined, r: DeliveryFaultRequest): DeliveryFaults {
  const seed = int(r.seed, 'seed', 0, MAX_SEED, current?.seed ?? newSeed());
  if (r.to !== undefined && !(FAULT_TARGETS as readonly unknown[]).includes(r.to))
    throw new DeliveryFaultError(said('to must be one of {0}', FAULT_TARGETS.join(', ')));
  const next: DeliveryFaults = { ...current, seed, to: (r.to as FaultTarget | undefined) ?? current?.to ?? 'all' };
  if (r.freshToken !== undefined && typeof r.freshToken !== 'boolean')
    throw new DeliveryFaultError(said('freshToken must be true or false'));
  if (r.fault !== 'duplicate' && r.freshToken !== undefined)
    throw new DeliveryFaultError(said('freshToken applies only to duplicate'));
  if (r.fault === 'duplicate')
    next.duplicate = { copies: int(r.count, 'count', 1, MAX_DUPLICATE_COPIES, 1), freshToken: r.freshToken === true };
  else if (r.fault === 'reorder') next.reorder = true;
  else if (r.fault === 'delay') next.delay = delayOf(r);
  else if (r.fault === 'retry-storm') next.retryStorm = { factor: int(r.factor, 'factor', 2, MAX_STORM_FACTOR, 10) };
  else next.burst = { count: int(r.count, 'count', 2, MAX_BURST, 5) };
  if (r.fault !== 'duplicate' && r.fault !== 'burst' && r.count !== undefined)
    throw new DeliveryFaultError(said('count applies only to duplicate (copies) and burst (deliveries at once)'));
  return next;
}

function delayOf(r: DeliveryFaultRequest): { minMs: number; maxMs: number } {
  if (r.delayMs === undefined)
    throw new DeliveryFaultError(said('delay needs delayMs (and maxDelayMs for a random delay)'));
  const minMs = int(r.delayMs, 'delayMs', 0, MAX_FAULT_DELAY_MS, 0);
  const maxMs = int(r.maxDelayMs, 'maxDelayMs', minMs, MAX_FAULT_DELAY_MS, minMs);
  return { minMs, maxMs };
}

/** Whether the setting applies to a delivery of this kind. */
export function appliesTo(f: DeliveryFaults, kind: 'workflow' | 'test'): boolean {
  return f.to === 'all' || f.to === kind;
}

/** The setting as a list of what it does, for `wfs sandbox faults` and the editor. */
export function deliveryFaultKinds(f: DeliveryFaults): DeliveryFaultKind[] {
  const out: DeliveryFaultKind[] = [];
  if (f.duplicate) out.push('duplicate');
  if (f.reorder) out.push('reorder');
  if (f.delay) out.push('delay');
  if (f.retryStorm) out.push('retry-storm');
  if (f.burst) out.push('burst');
  return out;
}

/** A profile's names for the kinds (JSON keys), each holding that kind's options or true. */
const PROFILE_KEYS: [string, DeliveryFaultKind][] = [
  ['duplicate', 'duplicate'],
  ['reorder', 'reorder'],
  ['delay', 'delay'],
  ['retryStorm', 'retry-storm'],
  ['burst', 'burst'],
];

/** A setting as a profile writes it: {"seed":7,"to":"all","duplicate":{"count":1},"reorder":true,
 * "delay":{"delayMs":500,"maxDelayMs":2000},"retryStorm":{"factor":10},"burst":{"count":5}}. Throws RangeError. */
export function deliveryFaultsFromJson(v: unknown): DeliveryFaults {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new DeliveryFaultError(said('must be an object'));
  const o = v as Record<string, unknown>;
  const known = new Set(['seed', 'to', ...PROFILE_KEYS.map(([k]) => k)]);
  const unknown = Object.keys(o).filter((k) => !known.has(k));
  if (unknown.length)
    throw new DeliveryFaultError(said('"{0}" is not a delivery fault ({1})', unknown[0]!, [...known].join(', ')));
  let f: DeliveryFaults | undefined;
  for (const [key, fault] of PROFILE_KEYS) {
    const opts = o[key];
    if (opts === undefined || opts === false) continue;
    if (opts !== true && (!opts || typeof opts !== 'object' || Array.isArray(opts)))
      throw new DeliveryFaultError(said('{0} must be true or an object of its options', key));
    const given = opts === true ? {} : (opts as Record<string, unknown>);
    try {
      f = withDeliveryFault(f, { ...given, fault, seed: o.seed, to: o.to });
    } catch (err) {
      throw new DeliveryFaultError(said('{0}: {1}', key, saidOf(err)));
    }
  }
  if (!f)
    throw new DeliveryFaultError(said('names no fault: give one of {0}', PROFILE_KEYS.map(([k]) => k).join(', ')));
  return f;
}
