// A peer extension, installed next to the packaged .vsix by the walkthrough: it reports what any other
// extension can get from the Workflow Service Toolkit: its exports, and an Accounts session with and without asking.
const vscode = require('vscode');

const TOOLKIT = 'workflow-service-toolkit.workflow-service-toolkit';

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.commands.registerCommand('wfsPeer.probe', async () => {
      const exported = await vscode.extensions.getExtension(TOOLKIT).activate();
      const keys = exported && typeof exported === 'object' ? Object.keys(exported) : [];
      const label = (s) => (s ? `${s.account.label}${s.accessToken ? ' with a token' : ''}` : 'none');
      const silent = await vscode.authentication.getSession('wfs', ['Sandbox'], { silent: true });
      const asked = await vscode.authentication
        .getSession('wfs', ['Sandbox'], { createIfNone: true })
        .catch((err) => ({ account: { label: `refused (${err.message})` } }));
      void vscode.window.showInformationMessage(
        `WFS Peer: exports ${keys.length ? keys.join(',') : 'none'}; without asking: ${label(silent)}; after asking: ${label(asked)}.`,
      );
    }),
    // The embedded sandbox's control API needs its per-start secret, which only code in the extension host can get
    // (from the Start Sandbox command's answer): the walkthrough injects its fault through here.
    vscode.commands.registerCommand('wfsPeer.sandboxFault', async () => {
      try {
        const info = await vscode.commands.executeCommand('wfs.startSandbox');
        if (!info || !info.controlSecret)
          throw new Error(`Start Sandbox answered ${JSON.stringify(info && Object.keys(info))}`);
        // node:http, not fetch: the extension host may wrap fetch (proxy support) with headers of its own.
        const call = (method, json) =>
          new Promise((resolve, reject) => {
            const body = json === undefined ? '' : JSON.stringify(json);
            const headers = {
              'x-sandbox-secret': info.controlSecret,
              'content-length': Buffer.byteLength(body),
              ...(body ? { 'content-type': 'application/json' } : {}),
            };
            const req = require('node:http').request(`${info.baseUrl}/sandbox/faults`, { method, headers }, (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode));
            });
            req.on('error', reject);
            req.end(body);
          });
        // Set anew: a second run leaves one pending fault, not two.
        await call('DELETE');
        const status = await call('POST', { fault: 'start-500-billed' });
        void vscode.window.showInformationMessage(
          `WFS Peer: the sandbox answered ${status} to the fault start-500-billed.`,
        );
      } catch (err) {
        void vscode.window.showErrorMessage(`WFS Peer: the fault could not be injected: ${err && err.message}`);
      }
    }),
  );
};
