// The typed settings reader in a real VS Code host: VS Code hands over a value of the wrong type as it is (the
// schema only underlines it); the extension reads the default instead and says so once in its log, naming the
// setting, what it expects and what it uses.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import { extensionApi, setSetting } from './helpers';

describe('settings: a value that does not fit, in a real VS Code host', () => {
  let api: ExtensionApi;
  before(async () => {
    api = await extensionApi();
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
  });
  after(async () => {
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await setSetting('receiver.port', undefined);
  });

  it('wfs.receiver.port "abc": the receiver starts on a free port, and the log names the setting once', async () => {
    const lines: string[] = [];
    const output = api.output;
    const warn = output.warn;
    output.warn = (line: string) => {
      lines.push(line);
      warn.call(output, line);
    };
    try {
      await setSetting('receiver.port', 'abc');
      for (let i = 0; i < 2; i++) {
        const info = (await vscode.commands.executeCommand('wfs.startReceiver')) as { localUrl?: string };
        assert.match(info.localUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
        assert.notEqual(new URL(info.localUrl!).port, '0');
        await vscode.commands.executeCommand('wfs.stopReceiver');
      }
      assert.deepEqual(
        lines.filter((l) => l.includes('wfs.receiver.port')),
        [
          'Settings: wfs.receiver.port is "abc", not an integer from 0 to 65535: 0 is used. Set it in your settings to use another value.',
        ],
      );
    } finally {
      output.warn = warn;
    }
  });
});
