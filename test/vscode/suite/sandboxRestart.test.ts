// The extension's receiver stays registered with the embedded sandbox across a restart (#79, item 3): the user
// stops and starts the sandbox (Stop Sandbox, Start Sandbox), the new run (a new port, a new key) learns the
// receiver's address, the output log says so, and the next workflow's events arrive at the receiver, verified.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import type { TrackedWorkflow } from '../../../src/core/workflows/WorkflowStore';
import { extensionApi, setSetting, until } from './helpers';

type SandboxInfo = {
  baseUrl: string;
  controlSecret: string;
  sessions: { staged: string };
  products: { service: string; model: string }[];
};

/** The addresses the sandbox sends its workflow events to, as its control API lists them. */
async function registrations(s: SandboxInfo): Promise<string[]> {
  const res = await fetch(`${s.baseUrl}/sandbox/webhooks`, { headers: { 'x-sandbox-secret': s.controlSecret } });
  assert.equal(res.status, 200);
  return ((await res.json()) as { endpoints: string[] }).endpoints;
}

describe("a sandbox restart keeps the extension's receiver registered", () => {
  let api: ExtensionApi;
  before(async () => {
    api = await extensionApi();
    await setSetting('confirmBilledStart', false);
    await setSetting('sandbox.workflowDurationSeconds', 0);
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });
  after(async () => {
    await setSetting('confirmBilledStart', undefined);
    await setSetting('sandbox.workflowDurationSeconds', undefined);
    await vscode.commands.executeCommand('wfs.stopReceiver');
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  it('Stop Sandbox, Start Sandbox: the new run lists the receiver, the log says it was registered again, and the next workflow arrives', async () => {
    const first = (await vscode.commands.executeCommand('wfs.startSandbox')) as SandboxInfo;
    await vscode.commands.executeCommand('wfs.startReceiver');
    const receiverAt = api.receiver.info!.localUrl;
    const registered = await registrations(first);
    assert.ok(registered.length > 0, 'the running receiver is registered with the sandbox');

    // The output log's lines, as the extension writes them (every line goes through this one object).
    const lines: string[] = [];
    const output = api.output as { info: (line: string) => void };
    const write = output.info;
    output.info = function (line: string) {
      lines.push(line);
      write.call(this, line);
    };
    let second: SandboxInfo;
    try {
      await vscode.commands.executeCommand('wfs.stopSandbox');
      second = (await vscode.commands.executeCommand('wfs.startSandbox')) as SandboxInfo;
    } finally {
      output.info = write;
    }
    assert.notEqual(second.baseUrl, first.baseUrl, 'a new run, on a new port');
    assert.equal(api.receiver.info?.localUrl, receiverAt, 'the receiver ran on, untouched');
    assert.deepEqual((await registrations(second)).sort(), [...registered].sort(), 'the new run knows the receiver');
    assert.ok(
      lines.includes(
        `Sandbox started: registered ${registered.join(', ')} with it again, so its workflow events arrive there`,
      ),
      `the output log says so: ${JSON.stringify(lines)}`,
    );

    // The next workflow, started on the new run: its events reach the extension's receiver, verified.
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'demo-password' }),
      true,
    );
    const w = (await vscode.commands.executeCommand('wfs.startWorkflow', {
      sessionId: second.sessions.staged,
      product: second.products[0],
      correlationId: `restart-${Date.now()}`,
    })) as TrackedWorkflow;
    assert.ok(w?.runId);
    await until(
      api.receiver.onDidReceive,
      () => api.receiver.deliveries.all().some((r) => r.runId === w.runId && r.verified),
      "the new run's workflow event",
    );
    const events = api.receiver.deliveries.all().filter((r) => r.runId === w.runId);
    assert.ok(
      events.every((r) => r.verified),
      JSON.stringify(events.map((r) => r.checks.filter((c) => !c.ok))),
    );
  });
});
