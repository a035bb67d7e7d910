// `wfs env`: what the service commands would use, read from the environment, with nothing sent and no secret shown.
import { isLoopbackHost, proxySettingsFromEnv, redactUrl } from '../../core/http';
import { EXIT } from '../exitCodes';
import { SERVICE_ENV, type CommandSpec } from '../commandSpec';
import { refuseCredentialsInAddressVariables } from '../cliEnvironment';

const REQUIRED = ['WFS_BASE_URL', 'WFS_USERNAME', 'WFS_PASSWORD'] as const;

export const envCommand: CommandSpec = {
  name: 'env',
  synopsis: 'env',
  description: [
    'Prints {"event":"env","baseUrl":…,"origin":…,"testWebhookUrl":…,"username":…,"passwordSet":true,"proxy":…,"missing":[…]}',
    'from the environment, sending nothing. The password is never printed, only whether it is set; a proxy address is',
    'shown without its credentials. "proxy" is null when requests go direct (no proxy set, or a loopback service).',
    'Exit 0 when every required variable is set, 2 when one is missing (named in "missing").',
  ].join('\n'),
  flags: {},
  env: SERVICE_ENV,
  async run(_flags, io) {
    const env = io.env;
    // It prints the addresses: one with a user name or password in it is refused instead (exit 2).
    refuseCredentialsInAddressVariables(env);
    const baseUrl = env.WFS_BASE_URL || null;
    let origin: string | null = null;
    let loopback = false;
    try {
      if (baseUrl) {
        const u = new URL(baseUrl);
        origin = u.origin;
        loopback = isLoopbackHost(u.hostname);
      }
    } catch {
      origin = null;
    }
    const proxy = proxySettingsFromEnv(env);
    const chosen = baseUrl?.startsWith('https:') ? proxy.httpsProxy : proxy.httpProxy;
    const missing = REQUIRED.filter((n) => !env[n]);
    io.emit({
      event: 'env',
      baseUrl,
      origin,
      testWebhookUrl: env.WFS_TEST_WEBHOOK_URL || baseUrl,
      username: env.WFS_USERNAME || null,
      passwordSet: Boolean(env.WFS_PASSWORD),
      userAlias: env.WFS_USER_ALIAS || null,
      proxy: chosen && !loopback ? redactUrl(chosen) : null,
      ...(proxy.noProxy ? { noProxy: proxy.noProxy } : {}),
      missing,
    });
    return missing.length ? EXIT.usage : EXIT.ok;
  },
};
