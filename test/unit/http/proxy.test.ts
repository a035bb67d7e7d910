// Proxy settings from the environment (CLI) and from VS Code's settings (extension), and the dispatcher that routes
// by them: loopback direct, NO_PROXY direct, everything else through CONNECT on the recording proxy.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkProxySettings, proxyDispatcher, proxySettingsFromEnv } from '../../../src/core/http/proxy';
import { httpRequest } from '../../../src/core/http/request';
import { extensionProxySettings } from '../../../src/extension/proxySettings';
import { RecordingProxy } from '../helpers/recordingProxy';

const settings = (values: Record<string, unknown>) => ({ get: <T>(k: string) => values[k] as T | undefined });

describe('proxy settings', () => {
  it('reads HTTPS_PROXY, HTTP_PROXY and NO_PROXY, upper case first; https falls back to HTTP_PROXY', () => {
    assert.deepEqual(proxySettingsFromEnv({}), {});
    assert.deepEqual(proxySettingsFromEnv({ http_proxy: 'http://p:1', NO_PROXY: 'a,b' }), {
      httpProxy: 'http://p:1',
      httpsProxy: 'http://p:1',
      noProxy: 'a,b',
    });
    assert.deepEqual(proxySettingsFromEnv({ HTTPS_PROXY: 'http://s:2', https_proxy: 'http://lower:3' }), {
      httpsProxy: 'http://s:2',
    });
  });

  it('VS Code: http.proxy for both schemes, http.noProxy joined; the environment when http.proxy is empty or proxySupport is off', () => {
    const env = { HTTPS_PROXY: 'http://env:1', NO_PROXY: 'envhost' };
    assert.deepEqual(
      extensionProxySettings(settings({ proxy: 'http://vs:8080', noProxy: ['a.example', 'b.example'] }), env),
      {
        httpProxy: 'http://vs:8080',
        httpsProxy: 'http://vs:8080',
        noProxy: 'a.example,b.example',
      },
    );
    assert.deepEqual(extensionProxySettings(settings({ proxy: 'http://vs:8080' }), env).noProxy, 'envhost');
    assert.deepEqual(extensionProxySettings(settings({ proxy: '' }), env), {
      httpsProxy: 'http://env:1',
      noProxy: 'envhost',
    });
    assert.deepEqual(extensionProxySettings(settings({ proxy: 'http://vs:8080', proxySupport: 'off' }), env), {
      httpsProxy: 'http://env:1',
      noProxy: 'envhost',
    });
    assert.equal(
      extensionProxySettings(settings({ proxy: 'http://vs:1', proxyAuthorization: 'Basic eA==' }), {})
        .proxyAuthorization,
      'Basic eA==',
    );
  });

  it('a malformed proxy address is named', async () => {
    assert.throws(
      () => checkProxySettings({ httpsProxy: 'not a url' }, 'HTTPS_PROXY'),
      /HTTPS_PROXY: the https proxy "not a url" is not a URL/,
    );
    assert.throws(
      () => checkProxySettings({ httpProxy: 'socks5://p:1' }, 'http.proxy'),
      /must be an http:\/\/ or https:\/\/ URL/,
    );
    assert.doesNotThrow(() => checkProxySettings({ httpProxy: 'http://user:pw@p:1' }, 'x'));
    assert.equal(await proxyDispatcher({}), undefined, 'no proxy, no dispatcher');
  });

  describe('routing', () => {
    let proxy: RecordingProxy;
    let target: Server;
    let port: number;
    before(async () => {
      proxy = new RecordingProxy();
      await proxy.start();
      target = createServer((req, res) => res.end(JSON.stringify({ host: req.headers.host })));
      await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
      port = (target.address() as AddressInfo).port;
    });
    after(async () => {
      await proxy.stop();
      target.close();
    });

    it('sends other hosts through CONNECT, loopback and NO_PROXY hosts directly', async () => {
      const dispatcher = (await proxyDispatcher({ httpProxy: proxy.url, noProxy: 'direct.test' }))!;
      try {
        const viaProxy = await httpRequest({ method: 'GET', url: `http://svc.test:${port}/`, dispatcher });
        assert.equal(JSON.parse(viaProxy.body.toString()).host, `svc.test:${port}`);
        assert.deepEqual(proxy.connects, [`svc.test:${port}`]);
        await httpRequest({ method: 'GET', url: `http://127.0.0.1:${port}/`, dispatcher });
        await httpRequest({ method: 'GET', url: `http://localhost:${port}/`, dispatcher });
        await assert.rejects(
          httpRequest({ method: 'GET', url: `http://direct.test:${port}/`, dispatcher, timeoutMs: 5000 }),
          /cannot reach/,
        );
        assert.deepEqual(proxy.connects, [`svc.test:${port}`], 'loopback and NO_PROXY never reached the proxy');
      } finally {
        await dispatcher.close();
      }
    });
  });
});
