// An HTTP proxy for the service's requests (HTTPS_PROXY / HTTP_PROXY / NO_PROXY, or VS Code's http.proxy and
// http.noProxy). Loopback is never proxied: the sandbox and the receiver live on this machine, where a corporate
// proxy cannot reach them.
import type { Dispatcher } from 'undici';
import { undici } from './undiciOnDemand';
import { isLoopbackHost } from './loopback';

export interface ProxySettings {
  /** Proxy for http:// targets. */
  httpProxy?: string;
  /** Proxy for https:// targets. */
  httpsProxy?: string;
  /** Comma- or space-separated hosts (with optional :port, leading dot or *. for subdomains, or * for all). */
  noProxy?: string;
  /** A Proxy-Authorization value (VS Code's http.proxyAuthorization); credentials in the proxy URL work too. */
  proxyAuthorization?: string;
}

/** The usual variables, upper case first; HTTPS falls back to HTTP_PROXY as curl and undici do. */
export function proxySettingsFromEnv(env: NodeJS.ProcessEnv): ProxySettings {
  const pick = (...names: string[]) => names.map((n) => env[n]).find((v) => v !== undefined && v !== '');
  const httpProxy = pick('HTTP_PROXY', 'http_proxy');
  const httpsProxy = pick('HTTPS_PROXY', 'https_proxy') ?? httpProxy;
  const noProxy = pick('NO_PROXY', 'no_proxy');
  return {
    ...(httpProxy ? { httpProxy } : {}),
    ...(httpsProxy ? { httpsProxy } : {}),
    ...(noProxy ? { noProxy } : {}),
  };
}

export class ProxyConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProxyConfigError';
  }
}

/** Checks the proxy addresses so a typo is named, not met later as an opaque connection failure. */
export function checkProxySettings(settings: ProxySettings, source: string): void {
  for (const [name, value] of [
    ['http proxy', settings.httpProxy],
    ['https proxy', settings.httpsProxy],
  ] as const) {
    if (!value) continue;
    let u: URL;
    try {
      u = new URL(value);
    } catch {
      throw new ProxyConfigError(
        `${source}: the ${name} "${value}" is not a URL (expected e.g. http://proxy.example:3128)`,
      );
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw new ProxyConfigError(`${source}: the ${name} must be an http:// or https:// URL`);
  }
}

/** A dispatcher for these settings, or undefined when no proxy is set (the default agent then serves). */
export async function proxyDispatcher(settings: ProxySettings): Promise<Dispatcher | undefined> {
  if (!settings.httpProxy && !settings.httpsProxy) return undefined;
  const { Agent, Dispatcher, EnvHttpProxyAgent } = await undici();
  /** Routes loopback targets directly and everything else by the proxy settings. */
  class LoopbackBypass extends Dispatcher {
    constructor(
      private readonly proxied: Dispatcher,
      private readonly direct: Dispatcher,
    ) {
      super();
    }

    override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      const origin = typeof options.origin === 'string' ? new URL(options.origin) : options.origin;
      return (origin && isLoopbackHost(origin.hostname) ? this.direct : this.proxied).dispatch(options, handler);
    }

    override async close(): Promise<void> {
      await Promise.all([this.proxied.close(), this.direct.close()]);
    }

    override async destroy(): Promise<void> {
      await Promise.all([this.proxied.destroy(), this.direct.destroy()]);
    }
  }
  // Empty strings, not undefined: EnvHttpProxyAgent would otherwise read the process environment itself.
  const proxied = new EnvHttpProxyAgent({
    httpProxy: settings.httpProxy ?? '',
    httpsProxy: settings.httpsProxy ?? '',
    noProxy: settings.noProxy ?? '',
    ...(settings.proxyAuthorization ? { token: settings.proxyAuthorization } : {}),
  });
  return new LoopbackBypass(proxied, new Agent());
}
