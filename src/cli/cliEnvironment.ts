// The CLI's service environment: endpoints and credentials from WFS_* variables, tokens in memory only.
// Reading and checking the variables is separate from signing in, so a command refuses a bad request before any
// credential leaves the process.
import { type Credentials, MemorySecretStore, TokenManager } from '../core/auth';
import {
  type Environment,
  parseServiceFields,
  type ServiceFieldProblem,
  type ServiceFields,
  toEnvironment,
} from '../core/environments';
import { DEFAULT_429_BACKOFF, RateGate, testEndpointIsLocal, userInfoProblem } from '../core/http';
import type { Clock } from '../core/time';
import { WorkflowClient } from '../core/workflows';
import { listInWords, UsageError } from './flags';
import type { CliIO } from './output';

/** The service a command talks to, read and checked, nothing sent yet: an Environment read by the extension's own
 * parser (environmentConfig.ts parseServiceFields), and what only the CLI has. */
export interface ServiceTarget extends Environment {
  credentials: Credentials;
  /** Attempts per request while the service answers 429. */
  rateLimitAttempts: number;
  /** True when the test endpoint is a local sandbox, which accepts http:// loopback addresses. */
  isLocalSandbox: boolean;
}

export interface CliEnvironment extends ServiceTarget {
  clock: Clock;
  tokens: TokenManager;
  gate: RateGate;
}

/** The CLI's environment has no settings entry: this name stands for it in its key and messages. */
const CLI_ENVIRONMENT = 'wfs';

/** Each service field is a variable. */
const VARIABLE: Record<keyof ServiceFields, string> = {
  baseUrl: 'WFS_BASE_URL',
  testWebhookUrl: 'WFS_TEST_WEBHOOK_URL',
  userAliasPlacement: 'WFS_USER_ALIAS_PLACEMENT',
};

/** The variables every service command needs. */
const REQUIRED_SERVICE_VARIABLES = ['WFS_BASE_URL', 'WFS_USERNAME', 'WFS_PASSWORD'] as const;

/** The required service variables that are not set, in their order. */
export function missingServiceVariables(env: NodeJS.ProcessEnv): string[] {
  return REQUIRED_SERVICE_VARIABLES.filter((name) => !env[name]);
}

/** "WFS_USERNAME and WFS_PASSWORD are not set", with what to do; the runner ends it with the command's help. */
export function notSetInWords(names: readonly string[]): string {
  return `${listInWords(names)} ${names.length === 1 ? 'is' : 'are'} not set: export ${names.length === 1 ? 'it' : 'them'}; a local \`wfs sandbox\` prints the export line for its own`;
}

/** The variables that hold an address. */
const ADDRESS_VARIABLES = [
  'WFS_BASE_URL',
  'WFS_TEST_WEBHOOK_URL',
  'WFS_FIND_WORKFLOWS_URL',
  'WFS_PROBLEMS_BASE',
] as const;

/** Refuses, before anything is read or sent, an address variable with a user name or password in it: named, with
 * where credentials go, and never repeated (addressUserInfo.ts). Any other problem is left to the variable's reader. */
export function refuseCredentialsInAddressVariables(env: NodeJS.ProcessEnv): void {
  for (const name of ADDRESS_VARIABLES) {
    const value = env[name];
    if (!value) continue;
    let u: URL;
    try {
      u = new URL(value);
    } catch {
      continue;
    }
    const problem = userInfoProblem(u);
    if (problem) throw new UsageError(`${name} ${problem}`);
  }
}

export function readServiceTarget(env: NodeJS.ProcessEnv): ServiceTarget {
  refuseCredentialsInAddressVariables(env);
  // Every missing variable is named at once, so the user sets them in one go.
  const missing = missingServiceVariables(env);
  const service = env.WFS_BASE_URL
    ? parseServiceFields({
        baseUrl: env.WFS_BASE_URL,
        testWebhookUrl: env.WFS_TEST_WEBHOOK_URL || undefined,
        userAliasPlacement: env.WFS_USER_ALIAS_PLACEMENT || undefined,
      })
    : undefined;
  // Said as the CLI always said them: an address's problem first, then missing credentials, then the placement.
  const refuse = (p: ServiceFieldProblem): never => {
    const also = missing.length ? `; and ${notSetInWords(missing)}` : '';
    throw new UsageError(
      `${VARIABLE[p.field]} ${p.problem}${p.kind === 'clear-credentials' && !also ? '.' : ''}${also}`,
      also ? 'the environment it reads' : undefined,
    );
  };
  if (service && 'problem' in service && service.kind !== 'alias-placement') refuse(service);
  if (missing.length || !service) throw new UsageError(notSetInWords(missing), 'the environment it reads');
  const credentials: Credentials = {
    username: env.WFS_USERNAME!,
    password: env.WFS_PASSWORD!,
    userAlias: env.WFS_USER_ALIAS || undefined,
  };
  if ('problem' in service) return refuse(service);
  const rawAttempts = env.WFS_RATE_LIMIT_ATTEMPTS;
  const rateLimitAttempts = rawAttempts ? Number(rawAttempts) : DEFAULT_429_BACKOFF.maxAttempts;
  if (!Number.isInteger(rateLimitAttempts) || rateLimitAttempts < 1 || rateLimitAttempts > 10)
    throw new UsageError('WFS_RATE_LIMIT_ATTEMPTS must be an integer from 1 to 10');
  const environment = toEnvironment({
    name: CLI_ENVIRONMENT,
    ...service,
    userAlias: credentials.userAlias,
    products: [],
    trustedIssuers: [],
    builtIn: false,
  });
  return {
    ...environment,
    credentials,
    rateLimitAttempts,
    isLocalSandbox: testEndpointIsLocal(environment.testWebhookUrl),
  };
}

/** Signs in to the target. Every backoff on the shared throttle (sign-in included) is printed as it begins. */
export async function signIn(target: ServiceTarget, io: CliIO): Promise<CliEnvironment> {
  const clock = io.clock;
  const gate = new RateGate(clock, { ...DEFAULT_429_BACKOFF, maxAttempts: target.rateLimitAttempts });
  gate.onBackoff(({ attempt, delayMs }) => io.emit({ event: 'backoff', status: 429, attempt, delayMs }));
  const tokens = new TokenManager({
    secretScope: target.key,
    baseUrl: target.baseUrl,
    store: new MemorySecretStore(),
    clock,
    aliasPlacement: target.aliasPlacement,
    silentCredentials: async () => target.credentials,
    gate,
  });
  try {
    await tokens.signIn(target.credentials);
  } catch (err) {
    tokens.dispose();
    throw err;
  }
  return { ...target, clock, tokens, gate };
}

/** The workflow client of a signed-in environment: its tokens, its throttle and its clock. */
export function workflowClient(env: CliEnvironment, findWorkflowsUrl?: string): WorkflowClient {
  return new WorkflowClient({
    baseUrl: env.baseUrl,
    userAlias: env.credentials.userAlias,
    tokens: env.tokens,
    gate: env.gate,
    clock: env.clock,
    ...(findWorkflowsUrl ? { findWorkflowsUrl } : {}),
  });
}
