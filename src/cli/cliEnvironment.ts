// The CLI's environment: endpoints and credentials from WFS_* variables, tokens in memory only.
import { MemorySecretStore } from '../core/auth/secretStore';
import { TokenManager, type AliasPlacement, type Credentials } from '../core/auth/TokenManager';
import { isLoopbackHost } from '../core/http/loopback';
import { RateGate } from '../core/http/rateGate';
import { SystemClock, type Clock } from '../core/time/clock';
import { UsageError } from './flags';

export interface CliEnvironment {
  baseUrl: string;
  testWebhookUrl: string;
  userAlias?: string;
  clock: Clock;
  tokens: TokenManager;
  /** True when the test endpoint is a local sandbox, which accepts http:// loopback addresses. */
  isLocalSandbox: boolean;
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const v = env[name];
  if (!v) throw new UsageError(`${name} is not set (see README: CLI environment)`);
  return v;
}

function httpUrl(name: string, value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new UsageError(`${name} is not a URL: ${value}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError(`${name} must be an http(s) URL`);
  return value.replace(/\/+$/, '');
}

export async function signedInEnvironment(env: NodeJS.ProcessEnv = process.env, clock: Clock = new SystemClock()): Promise<CliEnvironment> {
  const baseUrl = httpUrl('WFS_BASE_URL', required(env, 'WFS_BASE_URL'));
  const testWebhookUrl = httpUrl('WFS_TEST_WEBHOOK_URL', env.WFS_TEST_WEBHOOK_URL || baseUrl);
  const credentials: Credentials = {
    username: required(env, 'WFS_USERNAME'),
    password: required(env, 'WFS_PASSWORD'),
    userAlias: env.WFS_USER_ALIAS || undefined,
  };
  const placement = (env.WFS_USER_ALIAS_PLACEMENT || 'body') as AliasPlacement;
  if (!['body', 'header', 'query'].includes(placement)) throw new UsageError('WFS_USER_ALIAS_PLACEMENT must be body, header or query');
  const tokens = new TokenManager({
    environment: 'cli',
    baseUrl,
    store: new MemorySecretStore(),
    clock,
    aliasPlacement: placement,
    silentCredentials: async () => credentials,
    gate: new RateGate(clock),
  });
  await tokens.signIn(credentials);
  const t = new URL(testWebhookUrl);
  return { baseUrl, testWebhookUrl, userAlias: credentials.userAlias, clock, tokens, isLocalSandbox: t.protocol === 'http:' && isLoopbackHost(t.hostname) };
}
