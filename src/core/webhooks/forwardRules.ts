// Forward rules: which verified deliveries go on to which of the developer's apps. A rule is a glob over the signed
// `topic` (and optionally the signed `subTopic`), a target URL and optional extra headers. They are checked once,
// when the receiver starts, so a bad one is refused there, named, rather than failing each delivery later.
import { isAbsolute, resolve } from 'node:path';
import { addressWithoutUserInfo } from '../http/addressUserInfo';
import { httpUrlProblemSaid } from '../http/httpUrlProblem';
import { CaFileError, readCaFile, type TargetTls, tlsOptionsProblem } from '../http/targetTls';
import type { CaRemedy } from '../http/tlsFailure';
import { compileTopicPattern, topicPatternProblemSaid } from '../patterns';
import { said, saidOf, SaidError, type Said, type SaidValue } from '../presentation/said';

interface ForwardRuleInput {
  /** A glob over the signed topic; `**` (or leaving it out) matches every verified delivery. */
  topic?: string;
  /** A glob over the signed subTopic; left out, any subTopic (or none) matches. */
  subTopic?: string;
  url: string;
  headers?: Record<string, string>;
  /** Milliseconds for the whole exchange with this target (default: the receiver's forward timeout). */
  timeoutMs?: number;
  /** How the rule is named in errors and in the record; default `topic → url`. */
  name?: string;
  /** An https target's root: a PEM file (e.g. mkcert's rootCA.pem) trusted for this target only. */
  ca?: string;
  /** An https target on this machine whose certificate is not checked. */
  insecure?: boolean;
}

export interface ForwardRule {
  name: string;
  topic: string;
  subTopic?: string;
  url: string;
  headers: Record<string, string>;
  timeoutMs?: number;
  /** The `ca` file as the rule names it (read by withCaFiles, never by the parser). */
  ca?: string;
  insecure?: true;
  /** The target's own TLS, once its `ca` was read (withCaFiles) or for `insecure`. */
  tls?: TargetTls;
  /** Where the user gives this target's root, for the words of a TLS failure (default: `ca` on the rule). */
  caRemedy?: CaRemedy;
  /** Compiled globs. */
  matchTopic: (topic: string | undefined) => boolean;
  matchSubTopic: (subTopic: string | undefined) => boolean;
}

/** A rule the receiver cannot use: the message names it and says what to change. Core's Said (English in the CLI,
 * worded in the extension); English alone (the CLI's own flags) is a value, shown as it is. */
export class ForwardRuleError extends SaidError {
  constructor(message: Said | string) {
    super(typeof message === 'string' ? said('{0}', message) : message);
  }
}

/** The topic and subTopic shapes are `<group>/<name>` and `<kind>:<group>/<name>`: a glob holds those characters,
 * `*` (any run without `/`), `**` (any run) and `?` (one character but `/`); core/patterns matches them. */
const GLOB_CHARS = /^[A-Za-z0-9_.:/*?-]+$/;
/** Header names (RFC 9110 token) and values without line breaks. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers a rule may not set: the connection's own, and the credential the service signed. */
const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'authorization',
]);

/** What is wrong with a rule's glob: the one matcher's own checks (length, `***`), then the characters a topic or
 * subTopic can hold, so a typo such as `[x]` is named rather than matching nothing. */
function globProblem(glob: string): SaidValue | undefined {
  const problem = topicPatternProblemSaid(glob);
  if (problem) return problem;
  if (!GLOB_CHARS.test(glob)) {
    const bad = [...glob].find((c) => !/[A-Za-z0-9_.:/*?-]/.test(c))!;
    return said('holds {0}: a pattern is letters, digits, _ . : / - and the wildcards * ** ?', JSON.stringify(bad));
  }
  return undefined;
}

/** A checked glob as a predicate; `**` also takes a delivery with no signed value at all (a test webhook's). */
function compile(glob: string): (value: string | undefined) => boolean {
  if (glob === '**') return () => true;
  const pattern = compileTopicPattern(glob);
  return (value) => value !== undefined && pattern.matches(value);
}

/** A rule's extra headers, checked: names as RFC 9110 tokens, values on one line, none of the receiver's own. */
function headersOf(value: unknown, label: string): Record<string, string> {
  const headers: Record<string, string> = {};
  if (value === undefined) return headers;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ForwardRuleError(said('{0}: "headers" must be an object of header names to string values', label));
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (!HEADER_NAME.test(k))
      throw new ForwardRuleError(said('{0}: {1} is not a header name', label, JSON.stringify(k)));
    if (RESERVED_HEADERS.has(k.toLowerCase()))
      throw new ForwardRuleError(said("{0}: the header {1} is the receiver's to send, not a rule's", label, k));
    if (typeof v !== 'string' || /[\r\n\0]/.test(v))
      throw new ForwardRuleError(said('{0}: the header {1} must be a string on one line', label, k));
    headers[k.toLowerCase()] = v;
  }
  return headers;
}

/** How a rule names its TLS options in errors. */
const RULE_TLS_NAMES = { ca: '"ca"', insecure: '"insecure"' } as const;

/** `ca` and `insecure`, checked (tlsOptionsProblem); the file is not read here. */
function tlsOf(o: Record<string, unknown>, url: string, label: string): Pick<ForwardRule, 'ca' | 'insecure' | 'tls'> {
  const { ca, insecure } = o;
  const problem = tlsOptionsProblem(url, { ca, insecure }, RULE_TLS_NAMES);
  if (problem) throw new ForwardRuleError(said('{0}: {1}', label, problem));
  if (typeof ca === 'string') return { ca };
  return insecure === true ? { insecure: true, tls: { insecure: true } } : {};
}

/** The rules with each `ca` file read and checked (bounded, PEM certificates only); a relative path is taken from
 * `baseDir`. A face calls it once the rules are to be used: for a workspace's rules, only once the workspace is
 * trusted and its values agreed to, since the path is the workspace's word. Throws ForwardRuleError naming the rule. */
export function withCaFiles(rules: readonly ForwardRule[], baseDir: string | undefined): ForwardRule[] {
  return rules.map((rule) => {
    if (rule.ca === undefined || rule.tls) return rule;
    if (!isAbsolute(rule.ca) && baseDir === undefined)
      throw new ForwardRuleError(
        said('{0}: "ca" {1} is a relative path, and no folder is open: give an absolute path', rule.name, rule.ca),
      );
    const file = isAbsolute(rule.ca) ? rule.ca : resolve(baseDir!, rule.ca);
    try {
      return { ...rule, tls: { caPem: readCaFile(file), caFile: file } };
    } catch (err) {
      if (err instanceof CaFileError) throw new ForwardRuleError(said('{0}: {1}', rule.name, saidOf(err)));
      throw err;
    }
  });
}

/** The rules, checked and compiled, in order; `where` names their source (a setting, a flag) in errors. */
export function parseForwardRules(inputs: readonly unknown[], where: string): ForwardRule[] {
  return inputs.map((input, i) => parseForwardRule(input, `${where}[${i}]`));
}

function parseForwardRule(input: unknown, where: string): ForwardRule {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new ForwardRuleError(
      said('{0} must be an object {1}, not {2}', where, '{"topic", "url"}', String(JSON.stringify(input))),
    );
  const o = input as { [K in keyof ForwardRuleInput]?: unknown };
  const url = o.url;
  const topic = o.topic ?? '**';
  const label = `${where}${typeof o.name === 'string' && o.name ? ` "${o.name}"` : ''} (${typeof topic === 'string' ? topic : '?'} → ${typeof url === 'string' ? addressWithoutUserInfo(url) : '?'})`;
  if (typeof url !== 'string' || url === '') throw new ForwardRuleError(said('{0}: "url" is missing', label));
  const urlProblem = httpUrlProblemSaid(url);
  // A user name or password in it is refused here too, never repeated (httpUrlProblem).
  if (urlProblem) throw new ForwardRuleError(said('{0}: "url" {1}', label, urlProblem));
  if (typeof topic !== 'string') throw new ForwardRuleError(said('{0}: "topic" must be a string', label));
  const topicProblem = globProblem(topic);
  if (topicProblem)
    throw new ForwardRuleError(said('{0}: the topic pattern {1} {2}', label, JSON.stringify(topic), topicProblem));
  let subTopic: string | undefined;
  if (o.subTopic !== undefined) {
    if (typeof o.subTopic !== 'string') throw new ForwardRuleError(said('{0}: "subTopic" must be a string', label));
    const p = globProblem(o.subTopic);
    if (p) throw new ForwardRuleError(said('{0}: the subTopic pattern {1} {2}', label, JSON.stringify(o.subTopic), p));
    subTopic = o.subTopic;
  }
  const headers = headersOf(o.headers, label);
  let timeoutMs: number | undefined;
  if (o.timeoutMs !== undefined) {
    if (typeof o.timeoutMs !== 'number' || !Number.isInteger(o.timeoutMs) || o.timeoutMs < 1 || o.timeoutMs > 600_000)
      throw new ForwardRuleError(
        said('{0}: "timeoutMs" must be a whole number of milliseconds from 1 to 600000', label),
      );
    timeoutMs = o.timeoutMs;
  }
  const matchTopic = compile(topic);
  const matchSubTopic = subTopic === undefined ? () => true : compile(subTopic);
  return {
    name: typeof o.name === 'string' && o.name ? o.name : `${topic}${subTopic ? ` ${subTopic}` : ''} → ${url}`,
    topic,
    ...(subTopic !== undefined ? { subTopic } : {}),
    url,
    headers,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...tlsOf(o, url, label),
    matchTopic,
    matchSubTopic,
  };
}

/** `wfs.receiver.forwardTo` / `--forward-to`: every verified delivery to that URL. `o.tls`: its TLS as flags gave
 * it (targetTlsFrom), `o.caFlag` the flag that gives a root there (`--forward-ca`), named when its TLS fails. */
export function forwardEverything(
  url: string,
  where: string,
  o: { tls?: TargetTls; caFlag?: string } = {},
): ForwardRule {
  const rule = parseForwardRule({ topic: '**', url }, where);
  return {
    ...rule,
    ...(o.tls ? { tls: o.tls } : {}),
    ...(o.tls?.caFile !== undefined ? { ca: o.tls.caFile } : {}),
    ...(o.tls?.insecure ? { insecure: true as const } : {}),
    ...(o.caFlag !== undefined ? { caRemedy: { flag: o.caFlag } } : {}),
  };
}

/** The TLS a send to `url` outside the receiver's forwarding takes (Send to App, a replay to the forward target, the
 * assistant's replay): that of the first rule naming the URL, as the Forwarder picks it, its `ca` read now (a
 * relative path from `baseDir`); and where the user gives a root for it, for the words of a TLS failure. Only rules
 * in use may be given: a workspace's only once trusted and agreed to, since its `ca` path is its word. Throws
 * ForwardRuleError naming the rule when its `ca` cannot be used. */
export function forwardTargetTls(
  rules: readonly ForwardRule[],
  url: string,
  baseDir: string | undefined,
): { tls?: TargetTls; caRemedy: CaRemedy } {
  const href = hrefOf(url);
  const rule = href === undefined ? undefined : rules.find((r) => hrefOf(r.url) === href);
  if (!rule) return { caRemedy: 'environment' };
  const caRemedy = rule.caRemedy ?? 'rule';
  const tls = rule.tls ?? (rule.ca !== undefined ? withCaFiles([rule], baseDir)[0]!.tls : undefined);
  return tls ? { tls, caRemedy } : { caRemedy };
}

function hrefOf(url: string): string | undefined {
  try {
    return new URL(url).href;
  } catch {
    return undefined;
  }
}

/** `--forward 'PATTERN=URL[ ca=FILE | insecure]'`: PATTERN is a topic glob, optionally a space and a subTopic glob;
 * the first `=` ends it (a URL may hold more). After the URL and a space, one option: `ca=FILE` (the rest of the
 * value, so a path may hold spaces) or `insecure`. */
export function parseForwardFlag(value: string, where = '--forward'): ForwardRule {
  // The flag's value is named in every message: an address in it is shown without its user info (#74, hole 4).
  const eq = value.indexOf('=');
  const shown =
    eq > 0 ? value.slice(0, eq + 1) + addressWithoutUserInfo(value.slice(eq + 1)) : addressWithoutUserInfo(value);
  if (eq <= 0)
    throw new ForwardRuleError(
      `${where} ${JSON.stringify(shown)}: expected PATTERN=URL, e.g. 'payments/*=http://localhost:3000/hooks'`,
    );
  const pattern = value.slice(0, eq).trim();
  const [topic, subTopic, ...more] = pattern.split(/\s+/);
  if (more.length > 0)
    throw new ForwardRuleError(
      `${where} ${JSON.stringify(shown)}: PATTERN is a topic glob, optionally a space and a subTopic glob`,
    );
  const target = targetOptions(value.slice(eq + 1).trim(), `${where} ${JSON.stringify(shown)}`);
  return parseForwardRule({ topic, ...(subTopic ? { subTopic } : {}), ...target }, `${where} ${shown}`);
}

/** `URL`, `URL ca=FILE` or `URL insecure`: the target of a --forward flag and its one TLS option. */
function targetOptions(text: string, label: string): { url: string; ca?: string; insecure?: true } {
  const space = text.search(/\s/);
  if (space < 0) return { url: text };
  const url = text.slice(0, space);
  const option = text.slice(space).trim();
  if (option === 'insecure') return { url, insecure: true };
  if (option.startsWith('ca=')) return { url, ca: option.slice(3) };
  throw new ForwardRuleError(
    `${label}: after the URL comes one option, ca=FILE (the root that signed an https app's certificate) or insecure (a loopback https app's certificate not checked)`,
  );
}

/** Whether a rule takes a delivery, by its signed fields only (never what unsigned headers said). */
export function ruleMatches(rule: ForwardRule, signed: { topic?: string; subTopic?: string }): boolean {
  return rule.matchTopic(signed.topic) && rule.matchSubTopic(signed.subTopic);
}
