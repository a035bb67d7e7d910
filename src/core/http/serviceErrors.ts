// Typed errors of the service, one per row of the spec's error tables. User-facing text is built from these
// fields, never from the server's text/detail alone (those are not contractual). The advice is core's Said (a
// SaidError): English in the CLI and its JSON, in the user's language in the extension.
import { english, said, SaidError, type Said } from '../presentation/said';
import type { PathOperation } from './pathNotServed';

export type ServiceErrorKind =
  | 'validation'
  | 'malformed-request'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'path-not-served'
  | 'session-empty'
  | 'write-conflict'
  | 'conflict'
  | 'rate-limited'
  | 'outcome-unknown'
  | 'server-error'
  | 'unexpected'
  | 'local-validation'
  | 'transport';

/** Whether the refused call was billed (spec: the "Billed" column). */
export type Billed = 'no' | 'possibly' | 'unspecified' | 'n/a';

export interface ServiceErrorFields {
  status?: number;
  code?: string;
  problemType?: string;
  instance?: string;
  correlationId?: string;
  billed?: Billed;
  /** The server's own wording, for the log only. */
  serverText?: string;
}

/** Advice given as English alone (a caller outside core's messages) is a value: shown as it is in every face. */
function adviceSaid(advice: string | Said): Said {
  return typeof advice === 'string' ? said('{0}', advice) : advice;
}

export class ServiceError extends SaidError {
  /** What happened and what to do: the spec's "Action" column in words a person can act on (English). */
  readonly advice: string;
  readonly status?: number;
  readonly code?: string;
  readonly problemType?: string;
  readonly instance?: string;
  readonly correlationId?: string;
  readonly billed: Billed;
  readonly serverText?: string;

  constructor(
    readonly kind: ServiceErrorKind,
    /** The advice as core's Said (worded by each face), or English alone. */
    advice: string | Said,
    fields: ServiceErrorFields = {},
  ) {
    super(adviceSaid(advice));
    this.advice = english(this.said);
    this.name = 'ServiceError';
    this.status = fields.status;
    this.code = fields.code;
    this.problemType = fields.problemType;
    this.instance = fields.instance;
    this.correlationId = fields.correlationId;
    this.billed = fields.billed ?? 'no';
    this.serverText = fields.serverText;
  }

  /** The JSON error line of the CLI contract; fields that do not apply are omitted. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { event: 'error' };
    if (this.status !== undefined) out.status = this.status;
    if (this.code !== undefined) out.code = this.code;
    if (this.problemType !== undefined) out.problemType = this.problemType;
    if (this.instance !== undefined) out.instance = this.instance;
    if (this.correlationId !== undefined) out.correlationId = this.correlationId;
    out.kind = this.kind;
    out.message = this.advice;
    return out;
  }
}

export class ValidationError extends ServiceError {}
export class MalformedRequest extends ServiceError {}
export class Unauthorized extends ServiceError {
  constructor(
    advice: string | Said,
    fields: ServiceErrorFields,
    readonly tokenRejected: boolean,
    readonly wwwAuthenticate?: string,
  ) {
    super('unauthorized', advice, fields);
  }
}
/** 403: not permitted in this session or not entitled to the product (the more common), the edge, or an expired token.
 * */
export class NotEntitled extends ServiceError {
  constructor(
    advice: string | Said,
    fields: ServiceErrorFields,
    readonly htmlBody: boolean,
  ) {
    super('forbidden', advice, fields);
  }
}
export class NotFound extends ServiceError {}
/** 404 without a problem document: the address does not serve the path. It keeps the request, so a caller can say
 * which of its settings to change in its own words (pathNotServedAdvice). */
export class PathNotServed extends ServiceError {
  constructor(
    advice: string | Said,
    fields: ServiceErrorFields,
    readonly operation?: PathOperation,
    readonly requestUrl?: string,
  ) {
    super('path-not-served', advice, fields);
  }
}
export class SessionEmpty extends ServiceError {}
export class WriteConflict extends ServiceError {}
export class Conflict extends ServiceError {}
export class RateLimited extends ServiceError {}
export class OutcomeUnknown extends ServiceError {}
export class UnexpectedResponse extends ServiceError {}
/** Refused before sending: a rule of the spec the request would break. */
export class LocalValidationError extends ServiceError {
  constructor(
    readonly rule: string,
    advice: string | Said,
    fields: ServiceErrorFields = {},
  ) {
    super('local-validation', advice, fields);
  }
}
