// The extension's requests follow VS Code's proxy settings (http.proxy, http.noProxy, http.proxyAuthorization),
// or the HTTPS_PROXY / HTTP_PROXY / NO_PROXY environment when http.proxy is empty; http.proxySupport "off" leaves
// only the environment, as VS Code itself does.
import { proxySettingsFromEnv, type ProxySettings } from '../core/http';

export interface HttpSettings {
  get<T>(key: string): T | undefined;
}

/** What VS Code's settings and the environment say, as our proxy settings. */
export function extensionProxySettings(http: HttpSettings, env: NodeJS.ProcessEnv): ProxySettings {
  const fromEnv = proxySettingsFromEnv(env);
  if (http.get<string>('proxySupport') === 'off') return fromEnv;
  const proxy = http.get<string>('proxy')?.trim();
  if (!proxy) return fromEnv;
  const noProxy = (http.get<string[]>('noProxy') ?? []).filter((h) => typeof h === 'string' && h.trim()).join(',');
  const auth = http.get<string>('proxyAuthorization');
  return {
    httpProxy: proxy,
    httpsProxy: proxy,
    ...(noProxy ? { noProxy } : fromEnv.noProxy ? { noProxy: fromEnv.noProxy } : {}),
    ...(auth ? { proxyAuthorization: auth } : {}),
  };
}
