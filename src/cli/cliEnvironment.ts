// The CLI's service environment: endpoints and credentials from WFS_* variables, tokens in memory only.
// Reading and checking the variables is separate from signing in, so a command refuses a bad request before any
// credential leaves the process.
import { MemorySecretStore } from '../core/auth/secretStore';
import { TokenManager, type AliasPlacement, type Credentials } from '../core/auth/TokenManager';
import { credentialOriginProblem } from '../core/http/credentialOrigin';
import { isLoopbackHost } from '../core/http/loopback';
import { DEFAULT_429_BACKOFF, RateGate } from '../core/http/rateGate';
import type { Clock } from '../core/time/clock';
import { UsageError } from './flags';
import { httpUrlValue } from './httpUrlValue';
import type { CliIO } from './output';

/** The service a command talks to, read and checked, nothing sent yet. */
export interface ServiceTarget {
  baseUrl: string;
  testWebhookUrl: string;
  credentials: Credentials;
  aliasPlacement: AliasPlacement;
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

function required(env: NodeJS.ProcessEnv, name: string): string {
  const v = env[name];
  if (!v) throw new UsageError(`${name} is not set (run \`wfs <command> --help\` for the environment it reads)`);
  return v;
}

/** A service address: an http(s) URL, written without its trailing slashes, where the password and tokens may go
 * (https, or plain http on loopback). */
function serviceUrl(name: string, value: string): string {
  const url = httpUrlValue(name, value).replace(/\/+$/, '');
  const problem = credentialOriginProblem(url);
  if (problem) throw new UsageError(`${name} ${problem}.`);
  return url;
}

export function readServiceTarget(env: NodeJS.ProcessEnv): ServiceTarget {
  const baseUrl = serviceUrl('WFS_BASE_URL', required(env, 'WFS_BASE_URL'));
  const testWebhookUrl = serviceUrl('WFS_TEST_WEBHOOK_URL', env.WFS_TEST_WEBHOOK_URL || baseUrl);
  const credentials: Credentials = {
    username: required(env, 'WFS_USERNAME'),
    password: required(env, 'WFS_PASSWORD'),
    userAlias: env.WFS_USER_ALIAS || undefined,
  };
  const aliasPlacement = (env.WFS_USER_ALIAS_PLACEMENT || 'body') as AliasPlacement;
  if (!['body', 'header', 'query'].includes(aliasPlacement))
    throw new UsageError('WFS_USER_ALIAS_PLACEMENT must be body, header or query');
  const rawAttempts = env.WFS_RATE_LIMIT_ATTEMPTS;
  const rateLimitAttempts = rawAttempts ? Number(rawAttempts) : DEFAULT_429_BACKOFF.maxAttempts;
  if (!Number.isInteger(rateLimitAttempts) || rateLimitAttempts < 1 || rateLimitAttempts > 10)
    throw new UsageError('WFS_RATE_LIMIT_ATTEMPTS must be an integer from 1 to 10');
  const t = new URL(testWebhookUrl);
  return {
    baseUrl,
    testWebhookUrl,
    credentials,
    aliasPlacement,
    rateLimitAttempts,
    isLocalSandbox: t.protocol === 'http:' && isLoopbackHost(t.hostname),
  };
}

/** Signs in to the target. Every backoff on the shared throttle (sign-in included) is printed as it begins. */
export async function signIn(target: ServiceTarget, io: CliIO): Promise<CliEnvironment> {
  const clock = io.clock;
  const gate = new RateGate(clock, { ...DEFAULT_429_BACKOFF, maxAttempts: target.rateLimitAttempts });
  gate.onBackoff(({ attempt, delayMs }) => io.emit({ event: 'backoff', status: 429, attempt, delayMs }));
  const tokens = new TokenManager({
    environment: 'cli',
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
