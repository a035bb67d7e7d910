// Runs inside a real VS Code extension host: activation, contributed commands and views.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

const EXTENSION_ID = 'workflow-service-toolkit.workflow-service-toolkit';

interface Manifest {
  contributes: {
    commands: { command: string; category?: string }[];
    viewsContainers: { activitybar: { id: string }[] };
    views: Record<string, { id: string }[]>;
  };
}

/** The manifest as a user reads it in English: VS Code gives packageJSON with its "%key%" placeholders, which
 * package.nls.json fills. */
function englishManifest(ext: vscode.Extension<unknown>): unknown {
  const nls = JSON.parse(readFileSync(join(ext.extensionPath, 'package.nls.json'), 'utf8')) as Record<string, string>;
  const fill = (v: unknown): unknown => {
    if (typeof v === 'string') return /^%(.+)%$/.test(v) ? (nls[v.slice(1, -1)] ?? v) : v;
    if (Array.isArray(v)) return v.map(fill);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]));
    return v;
  };
  return fill(ext.packageJSON);
}

describe('extension in a real VS Code host', () => {
  let ext: vscode.Extension<unknown>;

  before(async () => {
    const found = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(found, `extension ${EXTENSION_ID} is loaded`);
    ext = found;
    // activate() rejects if activation throws; the tests below check what activation registered.
    await ext.activate();
  });

  it('registers every command contributed in package.json, each in the "Workflow Service" category', async () => {
    const manifest = englishManifest(ext) as Manifest;
    const registered = new Set(await vscode.commands.getCommands(true));
    const contributed = manifest.contributes.commands;
    assert.ok(contributed.length > 0);
    for (const c of contributed) {
      assert.ok(registered.has(c.command), `${c.command} is registered`);
      assert.equal(c.category, 'Workflow Service', `${c.command} has the category`);
    }
  });

  it('contributes the activity-bar container and its views', async () => {
    const manifest = englishManifest(ext) as Manifest;
    assert.ok(manifest.contributes.viewsContainers.activitybar.some((c) => c.id === 'wfs'));
    const views = manifest.contributes.views.wfs.map((v) => v.id);
    assert.ok(views.includes('wfs.explorer'));
    // Opening the view through its generated focus command proves VS Code knows the view.
    await vscode.commands.executeCommand('wfs.explorer.focus');
  });

  it('contributes a walkthrough whose steps run registered commands and whose media ship with the extension', async () => {
    const manifest = englishManifest(ext) as Manifest & {
      contributes: { walkthroughs: { id: string; steps: { description: string; media: { markdown: string } }[] }[] };
    };
    const registered = new Set(await vscode.commands.getCommands(true));
    const [walkthrough] = manifest.contributes.walkthroughs;
    assert.equal(walkthrough!.steps.length, 6);
    for (const step of walkthrough!.steps) {
      const command = /\(command:([\w.]+)\)/.exec(step.description)?.[1];
      assert.ok(command && registered.has(command), `step runs a registered command: ${command}`);
      const media = vscode.Uri.joinPath(ext.extensionUri, step.media.markdown);
      assert.ok((await vscode.workspace.fs.stat(media)).size > 0, `${step.media.markdown} exists`);
    }
    await vscode.commands.executeCommand(
      'workbench.action.openWalkthrough',
      `${EXTENSION_ID}#${walkthrough!.id}`,
      false,
    );
  });

  it('starts the embedded sandbox from the command and serves the service on loopback', async () => {
    const info = (await vscode.commands.executeCommand('wfs.startSandbox')) as {
      baseUrl: string;
      controlSecret: string;
      sessions: { staged: string };
    };
    assert.match(info.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(
      (await fetch(`${info.baseUrl}/sandbox`)).status,
      403,
      'its control API only for the holder of its secret',
    );
    const res = await fetch(`${info.baseUrl}/sandbox`, { headers: { 'x-sandbox-secret': info.controlSecret } });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { sessions: { staged: string } }).sessions.staged, info.sessions.staged);
    await vscode.commands.executeCommand('wfs.stopSandbox');
    await assert.rejects(fetch(`${info.baseUrl}/sandbox`), 'the sandbox stops listening');
  });
});
