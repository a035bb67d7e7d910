// The "url" public-address source (your own tunnel: here a loopback reverse proxy) and "Test Public Address", with
// one failing path per hop, in a real VS Code host. localtunnel and consent are in receiver.test.ts.
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import type { PublicAddressTestResult } from '../../../src/core/tunnel/publicAddressTest';
import { migrateTunnelSetting } from '../../../src/extension/receiver/publicAddressSettings';
import { extensionApi, setSetting, until } from './helpers';
import { statusBarEntry } from './workbenchDom';

const listenOn = (server: Server) =>
  new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port)));
const closeServer = (server: Server) =>
  new Promise<void>((r) => {
    server.close(() => r());
    server.closeAllConnections();
  });

describe('public address: a URL of your own, and Test Public Address, in a real VS Code host', () => {
  let api: ExtensionApi;
  let receiverPort: number;
  const servers: Server[] = [];
  const serve = async (s: Server) => {
    servers.push(s);
    return listenOn(s);
  };

  before(async () => {
    api = await extensionApi();
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    const probe = createServer();
    receiverPort = await listenOn(probe);
    await closeServer(probe);
    await setSetting('receiver.port', receiverPort);
    await setSetting('receiver.publicAddress', 'url');
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('wfs.stopReceiver');
    for (const s of servers.splice(0)) await closeServer(s);
  });
  after(async () => {
    for (const k of ['receiver.port', 'receiver.publicAddress', 'receiver.publicUrl']) await setSetting(k, undefined);
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  async function startWith(publicUrl: string): Promise<{ publicUrl?: string; publicNote?: string }> {
    await setSetting('receiver.publicUrl', publicUrl);
    return (await vscode.commands.executeCommand('wfs.startReceiver')) as { publicUrl?: string; publicNote?: string };
  }
  const test = async (timeoutMs?: number) =>
    (await vscode.commands.executeCommand('wfs.testPublicAddress', { timeoutMs })) as PublicAddressTestResult;

  it('through a reverse proxy: the signed delivery arrives verified, and the view shows the result', async () => {
    const proxyPort = await serve(
      createServer((req, res) => {
        const up = request(
          { host: '127.0.0.1', port: receiverPort, method: req.method, path: req.url, headers: req.headers },
          (r) => {
            res.writeHead(r.statusCode ?? 502, r.headers);
            r.pipe(res);
          },
        );
        req.pipe(up);
      }),
    );
    const publicUrl = `http://localhost:${proxyPort}/webhooks`;
    const info = await startWith(publicUrl);
    assert.equal(info.publicUrl, publicUrl);
    const r = await test();
    assert.equal(r.ok, true, r.detail);
    assert.equal(r.arrived, true);
    assert.ok(r.roundTripMs! > 0);
    const rows = api.receiverTree.getChildren().map((n) => n.kind);
    assert.deepEqual(rows, ['local', 'tunnel', 'selfTest', 'deliveries']);
    assert.match(String(api.receiverTree.getTreeItem({ kind: 'selfTest' }).description), /^arrived · [\d.]+ ms$/);
  });

  it('a proxy that stops: the status bar turns to a warning in words, and back when the proxy returns', async () => {
    const proxy = () =>
      createServer((req, res) => {
        const up = request(
          { host: '127.0.0.1', port: receiverPort, method: req.method, path: req.url, headers: req.headers },
          (r) => {
            res.writeHead(r.statusCode ?? 502, r.headers);
            r.pipe(res);
          },
        );
        up.on('error', () => res.destroy());
        req.pipe(up);
      });
    const proxyPort = await serve(proxy());
    const delivered = api.receiver.deliveries.size;
    await startWith(`http://localhost:${proxyPort}/webhooks`);
    const pathIs = (state: string) =>
      until(api.receiver.onDidChange, () => api.receiver.info?.publicPath === state, `the public path ${state}`);
    await pathIs('reaching');
    await statusBarEntry(/^\$\(radio-tower\) Receiver$/);
    await closeServer(servers.pop()!);
    // Two failed checks in a row say it stopped; here asked for at once rather than on the 2-minute schedule.
    assert.equal(api.receiver.checkPublicPath(), true);
    api.receiver.checkPublicPath();
    await pathIs('not-reaching');
    await statusBarEntry(/^\$\(warning\) Public address not reaching the receiver$/);
    servers.push(proxy());
    await new Promise<void>((r) => servers.at(-1)!.listen(proxyPort, '127.0.0.1', r));
    api.receiver.checkPublicPath();
    await pathIs('reaching');
    await statusBarEntry(/^\$\(radio-tower\) Receiver$/);
    assert.equal(api.receiver.deliveries.size, delivered, 'the checks are not deliveries');
  });

  it('wfs.receiver.publicPathCheckSeconds: 0 means no watch, at start and at once while running; a value starts it', async () => {
    const proxyPort = await serve(
      createServer((req, res) => {
        const up = request(
          { host: '127.0.0.1', port: receiverPort, method: req.method, path: req.url, headers: req.headers },
          (r) => {
            res.writeHead(r.statusCode ?? 502, r.headers);
            r.pipe(res);
          },
        );
        up.on('error', () => res.destroy());
        req.pipe(up);
      }),
    );
    const watched = (state: string | undefined, what: string) =>
      until(api.receiver.onDidChange, () => api.receiver.info?.publicPath === state, what);
    await setSetting('receiver.publicPathCheckSeconds', 0);
    try {
      const info = await startWith(`http://localhost:${proxyPort}/webhooks`);
      assert.ok(info.publicUrl, 'the public address is open');
      assert.equal(api.receiver.info?.publicPath, undefined, 'but not watched');
      assert.equal(api.receiver.checkPublicPath(), false);
      // Applied at once to the running receiver: the watch starts, and its first check goes through the proxy.
      await setSetting('receiver.publicPathCheckSeconds', 300);
      await watched('reaching', 'the public path reaching');
      await statusBarEntry(/^\$\(radio-tower\) Receiver$/);
      await setSetting('receiver.publicPathCheckSeconds', 0);
      await watched(undefined, 'no watch');
      assert.equal(api.receiver.checkPublicPath(), false);
    } finally {
      await setSetting('receiver.publicPathCheckSeconds', undefined);
    }
  });

  it('each broken path is named by its hop: connect, the reminder page, the tunnel itself, a timeout, TLS', async () => {
    const dead = await serve(createServer());
    await closeServer(servers.pop()!);
    const cases: [string, string, number?][] = [
      [`http://127.0.0.1:${dead}/webhooks`, 'connect'],
      [
        `http://127.0.0.1:${await serve(createServer((_q, s) => s.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Friendly Reminder</h1> localtunnel')))}/webhooks`,
        'reminder-page',
      ],
      [
        `http://127.0.0.1:${await serve(createServer((_q, s) => s.writeHead(502).end('bad gateway')))}/webhooks`,
        'tunnel',
      ],
      [`http://127.0.0.1:${await serve(createServer(() => undefined))}/webhooks`, 'timeout', 400],
      [`https://127.0.0.1:${await serve(createServer((_q, s) => s.end()))}/webhooks`, 'tls'],
    ];
    for (const [url, hop, timeoutMs] of cases) {
      await startWith(url);
      const r = await test(timeoutMs);
      assert.deepEqual([r.ok, r.failedHop], [false, hop], `${url}: ${r.detail}`);
      // The hop in words (English here): the tree says where the path broke, not the hop's code.
      const words: Record<string, string> = {
        connect: 'connecting',
        'reminder-page': "the tunnel's reminder page",
        tunnel: 'the tunnel',
        timeout: 'a timeout',
        tls: 'TLS',
      };
      assert.equal(api.receiverTree.getTreeItem({ kind: 'selfTest' }).description, `failed: ${words[hop]}`);
      await vscode.commands.executeCommand('wfs.stopReceiver');
    }
  });

  it('"url" without a fixed port: the receiver runs on loopback, and says why there is no public address', async () => {
    await setSetting('receiver.port', 0);
    try {
      const info = await startWith('https://hooks.example.test/webhooks');
      assert.equal(info.publicUrl, undefined);
      assert.match(info.publicNote ?? '', /did not open: wfs\.receiver\.port is 0/);
      assert.ok(api.receiver.info?.localUrl, 'the receiver itself runs');
    } finally {
      await setSetting('receiver.port', receiverPort);
    }
  });

  it('an old wfs.receiver.tunnel is moved to wfs.receiver.publicAddress once', async () => {
    const config = () => vscode.workspace.getConfiguration('wfs');
    await setSetting('receiver.publicAddress', undefined);
    await setSetting('receiver.tunnel', 'never');
    const lines: string[] = [];
    await migrateTunnelSetting({ info: (l: string) => lines.push(l), warn: (l: string) => lines.push(l) } as never);
    assert.equal(config().inspect('receiver.publicAddress')?.globalValue, 'none');
    assert.equal(config().inspect('receiver.tunnel')?.globalValue, undefined, 'the old key is removed');
    assert.match(lines.join('\n'), /wfs\.receiver\.tunnel "never" is now wfs\.receiver\.publicAddress "none"/);
    await setSetting('receiver.publicAddress', 'url');
  });
});
