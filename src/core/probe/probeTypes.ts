// What `wfs probe-service` records and reports. Every field here is safe to print and to save: names, statuses,
// media types and counts, never a token, a password, a refresh token, a body's values or a URL's query string.
import type { Said } from '../presentation/said';

/** Where a row and an outcome keep their words for a person (Saids): under a symbol key, which JSON.stringify leaves
 * out, so the CLI's lines, the reports and the MCP tools carry the English fields only, while a face that holds the
 * report in memory (the editor) words them. */
export const WORDS: unique symbol = Symbol('probe words');

/** A row's words beyond its spec: what the service did, and the notes (the reasons it differs or was not probed). */
export interface RowSaids {
  service: Said;
  notes: Said[];
}

/** The kinds of body the spec names (Errors), and what else may come back. */
type ObservedBodyKind = 'messages' | 'problem' | 'json' | 'empty' | 'html' | 'other';

/** A JSON value's type, recorded in place of the value. */
export type JsonTypeName = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null';

export interface JwtNames {
  /** Protected-header parameter names, sorted. */
  header: string[];
  /** Claim names with the type of each value, never the value. */
  claims: Record<string, JsonTypeName>;
  /** exp − iat in seconds, when both are numbers. */
  lifetimeSeconds?: number;
  /** The header's alg, when it is one of the JOSE algorithm names (not a secret: it says how to verify). */
  alg?: string;
}

/** What one response was, without its values. */
export interface Observation {
  status: number;
  /** Media type, lower case, without parameters; '' when absent. */
  contentType: string;
  bodyKind: ObservedBodyKind;
  /** Top-level field names of a JSON object body, with each value's type. */
  fields?: Record<string, JsonTypeName>;
  /** messages[].code of a messages envelope: the service's machine-readable vocabulary. */
  messageCodes?: string[];
  /** A problem document's type URI, without query or fragment. */
  problemType?: string;
  /** An OAuth-style "error" code of a JSON body (letters, digits, _ . -; at most 64), when it has one. */
  errorCode?: string;
  /** WWW-Authenticate: its scheme and parameter names, and its error= value when it is a plain token. */
  wwwAuthenticate?: { scheme: string; params: string[]; error?: string };
  /** Facts a row needs beyond the shape (expires_in, whether the refresh token rotated, key ids, header names). */
  facts?: Record<string, string | number | boolean | string[]>;
  jwt?: JwtNames;
}

export type Verdict = 'as-spec' | 'silent' | 'differs' | 'not-probed';

export interface RowResult {
  id: string;
  title: string;
  /** The request, as method and path template: never the full URL. */
  request: string;
  spec: string;
  sandbox: string;
  /** The observation (undefined when not probed). */
  service?: Observation;
  /** The observation in words, as the report shows it. */
  serviceText: string;
  verdict: Verdict;
  /** The verdict in the report's words. */
  verdictText: string;
  /** Silent rows: whether the service chose what the sandbox does. */
  matchesSandbox?: boolean;
  notes: string[];
  [WORDS]?: RowSaids;
}

export interface ProbeOutcome {
  /** How the probe ended. */
  ended: 'complete' | 'throttled' | 'start-accepted' | 'sign-in-refused' | 'request-failed';
  message?: string;
  /** On a 2xx start: what the service answered with (the handle, never the body). */
  accepted?: { row: string; status: number; workflowId?: string; correlationId: string };
  /** The message's words (see WORDS). */
  [WORDS]?: Said;
}

export interface ProbeReport {
  tool: string;
  version: string;
  at: string;
  /** The origins probed (scheme, host and port only). */
  origins: { service: string; testWebhook: string; keySets: string[] };
  requests: number;
  rows: RowResult[];
  outcome: ProbeOutcome;
  counts: Record<Verdict, number>;
}

export const VERDICT_WORDS: Record<Verdict, string> = {
  'as-spec': 'as the spec says',
  silent: 'the spec is silent',
  differs: 'differs from the spec',
  'not-probed': 'not probed',
};
