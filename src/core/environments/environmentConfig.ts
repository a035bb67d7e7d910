// The environments a user works against: the `wfs.environments` setting, checked entry by entry, plus the
// built-in Sandbox (whose addresses exist only while the embedded sandbox runs).
import type { AliasPlacement } from '../auth/TokenManager';
import type { Product } from '../workflows/workflowTypes';
import type { TrustedIssuer } from '../webhooks/Verifier';
import type { SandboxInfo } from '../sandbox/Sandbox';
import { credentialOriginProblem } from '../http/credentialOrigin';
import { httpUrlProblem, httpUrlProblemSaid } from '../http/httpUrlProblem';
import { english, said, type Said, type SaidValue } from '../presentation/said';

export const SANDBOX_ENVIRONMENT = 'Sandbox';

export interface EnvironmentConfig {
  name: string;
  baseUrl: string;
  testWebhookUrl: string;
  problemsBase?: string;
  userAlias?: string;
  aliasPlacement: AliasPlacement;
  products: Product[];
  trustedIssuers: TrustedIssuer[];
  /** Find Workflows' address with {correlationId} (the spec does not show the endpoint); default: the sandbox's shape.
   * */
  findWorkflowsUrl?: string;
  /** The embedded sandbox: started on demand, loopback addresses allowed. */
  builtIn: boolean;
}

export interface ParsedEnvironments {
  environments: EnvironmentConfig[];
  /** One sentence per refused entry or field, naming it: shown with an "Open Settings" button. */
  problems: string[];
  /** The same, for a face that words them in the user's language. */
  problemsSaid: Said[];
}

/** The address without its trailing slashes, when it is an http(s) URL. */
function httpUrl(value: unknown): string | undefined {
  return typeof value === 'string' && !httpUrlProblem(value) ? value.replace(/\/+$/, '') : undefined;
}

/** Why a field is not an http(s) URL, for a problem naming it. */
function urlProblem(value: unknown): string {
  return english(urlProblemSaid(value));
}

function urlProblemSaid(value: unknown): Said {
  return (typeof value === 'string' && httpUrlProblemSaid(value)) || said('must be an http(s) URL');
}

/** Where an environment's service is and how sign-in carries the user alias, as written (a settings entry, or the
 * CLI's WFS_* variables): absent fields take their defaults. */
export interface ServiceFields {
  baseUrl?: unknown;
  testWebhookUrl?: unknown;
  userAliasPlacement?: unknown;
}

/** A refused field: which one, and why as the end of a sentence that names it (the caller names it its own way). */
export interface ServiceFieldProblem {
  field: keyof ServiceFields;
  problem: string;
  /** The same, for a face that words it in the user's language. */
  problemSaid: SaidValue;
  /** 'clear-credentials': an http address off this machine (a whole clause); 'address': not an http(s) URL;
   * 'alias-placement': not body, header or query. */
  kind: 'address' | 'clear-credentials' | 'alias-placement';
}

const ALIAS_PLACEMENTS: readonly AliasPlacement[] = ['body', 'header', 'query'];

/** The one reading of the service fields, for the extension's settings and the CLI alike: http(s) URLs without
 * their trailing slashes, where credentials may go (https, or plain http on loopback); the test webhook address
 * defaults to the service's; the alias goes in the body unless told otherwise. The first problem, in field order. */
export function parseServiceFields(
  o: ServiceFields,
): Pick<EnvironmentConfig, 'baseUrl' | 'testWebhookUrl' | 'aliasPlacement'> | ServiceFieldProblem {
  const baseUrl = httpUrl(o.baseUrl);
  if (!baseUrl)
    return {
      field: 'baseUrl',
      problem: urlProblem(o.baseUrl),
      problemSaid: urlProblemSaid(o.baseUrl),
      kind: 'address',
    };
  // The password and tokens go to both: the address is refused, not sent in clear.
  const clearBase = credentialOriginProblem(baseUrl);
  if (clearBase) return { field: 'baseUrl', problem: clearBase, problemSaid: clearBase, kind: 'clear-credentials' };
  const testWebhookUrl = o.testWebhookUrl === undefined ? baseUrl : httpUrl(o.testWebhookUrl);
  if (!testWebhookUrl)
    return {
      field: 'testWebhookUrl',
      problem: urlProblem(o.testWebhookUrl),
      problemSaid: urlProblemSaid(o.testWebhookUrl),
      kind: 'address',
    };
  const clearTest = credentialOriginProblem(testWebhookUrl);
  if (clearTest)
    return { field: 'testWebhookUrl', problem: clearTest, problemSaid: clearTest, kind: 'clear-credentials' };
  const aliasPlacement = (o.userAliasPlacement ?? 'body') as AliasPlacement;
  if (!ALIAS_PLACEMENTS.includes(aliasPlacement))
    return {
      field: 'userAliasPlacement',
      problem: 'must be body, header or query',
      problemSaid: said('must be body, header or query'),
      kind: 'alias-placement',
    };
  return { baseUrl, testWebhookUrl, aliasPlacement };
}

/** Reads the setting; bad entries are skipped with a problem, never thrown, so one typo does not hide the rest. */
export function parseEnvironments(raw: unknown): ParsedEnvironments {
  const environments: EnvironmentConfig[] = [];
  const problems: Said[] = [];
  const parsed = () => ({ environments, problems: problems.map(english), problemsSaid: problems });
  if (raw === undefined || raw === null) return parsed();
  if (!Array.isArray(raw)) {
    problems.push(said('wfs.environments must be a list of environments.'));
    return parsed();
  }
  const seen = new Set<string>([SANDBOX_ENVIRONMENT.toLowerCase()]);
  raw.forEach((entry, i) => {
    const o = entry as Record<string, unknown>;
    const where = `wfs.environments[${i}]`;
    if (!o || typeof o !== 'object' || Array.isArray(o)) return problems.push(said('{0} is not an object.', where));
    const name = typeof o.name === 'string' ? o.name.trim() : '';
    if (!name) return problems.push(said('{0} has no "name".', where));
    if (!/^[\w .-]{1,64}$/.test(name))
      return problems.push(
        said('{0}: the name "{1}" may hold only letters, digits, spaces, ".", "_" and "-" (at most 64).', where, name),
      );
    if (seen.has(name.toLowerCase()))
      return problems.push(
        name.toLowerCase() === 'sandbox'
          ? said('{0}: the name "{1}" is already used by the built-in sandbox.', where, name)
          : said('{0}: the name "{1}" is already used.', where, name),
      );
    const service = parseServiceFields(o);
    if ('problem' in service)
      return problems.push(said('{0} ("{1}"): "{2}" {3}.', where, name, service.field, service.problemSaid));
    const { baseUrl, testWebhookUrl, aliasPlacement: placement } = service;
    const problemsBase = o.problemsBase === undefined ? undefined : httpUrl(o.problemsBase);
    if (o.problemsBase !== undefined && !problemsBase)
      return problems.push(said('{0} ("{1}"): "problemsBase" {2}.', where, name, urlProblemSaid(o.problemsBase)));
    const products = parseProducts(o, where, name, problems);
    const trustedIssuers = parseTrustedIssuers(o, where, name, problems);
    let findWorkflowsUrl: string | undefined;
    if (o.findWorkflowsUrl !== undefined) {
      const t = typeof o.findWorkflowsUrl === 'string' ? o.findWorkflowsUrl : '';
      const u = httpUrl(t.replace('{correlationId}', 'x'));
      if (!u || !t.includes('{correlationId}') || new URL(u).origin !== new URL(baseUrl).origin)
        return problems.push(
          said(
            '{0} ("{1}"): "findWorkflowsUrl" must be an http(s) URL on the baseUrl\'s origin with {2} in it.',
            where,
            name,
            '{correlationId}',
          ),
        );
      findWorkflowsUrl = t;
    }
    seen.add(name.toLowerCase());
    environments.push({
      name,
      baseUrl,
      testWebhookUrl,
      problemsBase,
      userAlias: typeof o.userAlias === 'string' && o.userAlias.trim() ? o.userAlias.trim() : undefined,
      aliasPlacement: placement,
      products,
      trustedIssuers,
      ...(findWorkflowsUrl ? { findWorkflowsUrl } : {}),
      builtIn: false,
    });
  });
  return parsed();
}

/** The built-in Sandbox, once the embedded sandbox runs: its products and its issuer pre-filled. */
export function sandboxEnvironment(
  info: Pick<
    SandboxInfo,
    'baseUrl' | 'testWebhookUrl' | 'problemsBase' | 'issuer' | 'audience' | 'jwksUrl' | 'products' | 'unentitledProduct'
  >,
): EnvironmentConfig {
  return {
    name: SANDBOX_ENVIRONMENT,
    baseUrl: info.baseUrl,
    testWebhookUrl: info.testWebhookUrl,
    problemsBase: info.problemsBase,
    aliasPlacement: 'body',
    // The unentitled product is offered too, so a user can see the 403 row for themselves.
    products: [...info.products, info.unentitledProduct],
    trustedIssuers: [{ issuer: info.issuer, audience: info.audience, jwksUrl: info.jwksUrl }],
    builtIn: true,
  };
}

/** An entry's products; one without a service and a model is skipped with a problem. */
function parseProducts(o: Record<string, unknown>, where: string, name: string, problems: Said[]): Product[] {
  const products: Product[] = [];
  for (const p of Array.isArray(o.products) ? o.products : []) {
    const q = p as Record<string, unknown>;
    if (typeof q?.service === 'string' && q.service.trim() && typeof q.model === 'string' && q.model.trim())
      products.push({ service: q.service.trim(), model: q.model.trim() });
    else problems.push(said('{0} ("{1}"): a product needs a "service" and a "model"; one was skipped.', where, name));
  }
  return products;
}

/** An entry's trusted issuers; an incomplete one is skipped with a problem. */
function parseTrustedIssuers(
  o: Record<string, unknown>,
  where: string,
  name: string,
  problems: Said[],
): TrustedIssuer[] {
  const trustedIssuers: TrustedIssuer[] = [];
  for (const t of Array.isArray(o.trustedIssuers) ? o.trustedIssuers : []) {
    const q = t as Record<string, unknown>;
    const jwksUrl = httpUrl(q?.jwksUrl);
    if (typeof q?.issuer === 'string' && q.issuer && typeof q.audience === 'string' && q.audience && jwksUrl)
      trustedIssuers.push({ issuer: q.issuer, jwksUrl, audience: q.audience });
    else if (typeof q?.jwksUrl === 'string' && q.jwksUrl && !jwksUrl)
      problems.push(
        said(
          '{0} ("{1}"): a trusted issuer\'s "jwksUrl" {2}; that issuer was skipped.',
          where,
          name,
          urlProblemSaid(q.jwksUrl),
        ),
      );
    else
      problems.push(
        said(
          '{0} ("{1}"): a trusted issuer needs "issuer", "audience" and an http(s) "jwksUrl"; one was skipped.',
          where,
          name,
        ),
      );
  }
  return trustedIssuers;
}
