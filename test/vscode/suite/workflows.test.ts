// The explorer in a real VS Code host: add a session, start a workflow, watch it reach complete in the tree by
// live polling; refresh, reconfirm, raw JSON, copy; refusals surface as typed errors, never as a tree entry.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../hostExtension/extension';
import type { ExplorerNode } from '../../../src/extension/explorer/explorerTree';
import type { TrackedWorkflow } from '../../../src/core/workflows/WorkflowStore';
import { extensionApi, setSetting, signInThrough, startSandboxRelay, until, envValue } from './helpers';
import { notificationButtons, notificationsInCenter } from './workbenchDom';

describe('workflow explorer in a real VS Code host', () => {
  let api: ExtensionApi;
  let started: TrackedWorkflow;

  before(async () => {
    api = await extensionApi();
    await setSetting('sandbox.workflowDurationSeconds', 1);
    await setSetting('confirmBilledStart', false);
    await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
    await vscode.commands.executeCommand('wfs.stopSandbox');
    await vscode.commands.executeCommand('wfs.startSandbox');
    assert.equal(
      await vscode.commands.executeCommand('wfs.signIn', { username: 'demo', password: 'demo-password' }),
      true,
    );
    // Shown by this suite, whatever ran before it: VS Code reports the view visible a moment after the focus.
    await vscode.commands.executeCommand('wfs.explorer.focus');
    await until(api.treeView.onDidChangeVisibility, () => api.treeView.visible, 'the explorer is shown');
  });
  after(async () => {
    await setSetting('sandbox.workflowDurationSeconds', undefined);
    await setSetting('confirmBilledStart', undefined);
    await vscode.commands.executeCommand('wfs.stopSandbox');
  });

  it('signed in with no sessions: the explorer shows the "Add Session" welcome', async () => {
    for (const s of api.workflows.store.sessions(envValue(api, 'Sandbox')))
      api.workflows.removeSession(envValue(api, 'Sandbox'), s);
    assert.equal(api.explorer.currentState(), 'no-sessions');
    assert.deepEqual(await api.explorer.getChildren(), []);
  });

  it('adds a session by id; it is remembered and shown under the environment', async () => {
    const info = api.sandbox.info!;
    assert.equal(await vscode.commands.executeCommand('wfs.addSession', info.sessions.staged), info.sessions.staged);
    assert.equal(api.explorer.currentState(), 'ready');
    const [root] = await api.explorer.getChildren();
    assert.deepEqual(root, { kind: 'environment', env: envValue(api, 'Sandbox') });
    const sessions = await api.explorer.getChildren(root);
    assert.deepEqual(sessions, [{ kind: 'session', env: envValue(api, 'Sandbox'), sessionId: info.sessions.staged }]);
    assert.deepEqual(
      (api.state.get('wfs.workflows') as Record<string, { sessions: string[] }>).Sandbox.sessions,
      [info.sessions.staged],
      'persisted in globalState',
    );
  });

  it('starts a workflow in the session and sees it reach "complete" in the tree by live polling', async () => {
    const info = api.sandbox.info!;
    assert.equal(api.treeView.visible, true, 'the explorer is visible, so polling runs');
    started = (await vscode.commands.executeCommand('wfs.startWorkflow', {
      sessionId: info.sessions.staged,
      product: info.products[0],
      correlationId: `host-test-${Date.now()}`,
    })) as TrackedWorkflow;
    assert.ok(started, 'the start returned a workflow');
    assert.equal(started.status, 'processing');
    assert.equal(started.product.service, 'Appraisal');
    const node: ExplorerNode = { kind: 'workflow', env: envValue(api, 'Sandbox'), workflowId: started.workflowId };
    const item = () => api.explorer.getTreeItem(node);
    assert.equal((item().iconPath as vscode.ThemeIcon).id, 'sync~spin', 'processing spins');
    await until(
      api.workflows.onDidChange,
      () => api.workflows.store.workflow(envValue(api, 'Sandbox'), started.workflowId)?.status === 'complete',
      'the workflow to complete',
    );
    assert.equal(item().description, 'complete');
    assert.equal((item().iconPath as vscode.ThemeIcon).id, 'pass-filled');
    assert.match(item().contextValue!, /status-complete/);
    const tooltip = (item().tooltip as vscode.MarkdownString).value;
    for (const part of [started.workflowId, started.runId, started.correlationId].map((p) =>
      p.replace(/[_-]/g, (c) => `\\${c}`),
    ))
      assert.ok(tooltip.includes(part), `tooltip names ${part}`);
    const [root] = await api.explorer.getChildren();
    const [session] = await api.explorer.getChildren(root);
    assert.deepEqual(await api.explorer.getChildren(session), [node]);
  });

  it('reconfirm is offered by the context token once available (Appraisal / Standard), and works; refresh reads it again', async () => {
    const w = api.workflows.store.workflow(envValue(api, 'Sandbox'), started.workflowId)!;
    assert.equal(w.reconfirmAvailable, true, 'the sandbox makes Appraisal / Standard reconfirmable on completion');
    assert.match(
      api.explorer.getTreeItem({ kind: 'workflow', env: envValue(api, 'Sandbox'), workflowId: w.workflowId })
        .contextValue!,
      /reconfirmable/,
    );
    const r = (await vscode.commands.executeCommand('wfs.reconfirmWorkflow', {
      kind: 'workflow',
      env: envValue(api, 'Sandbox'),
      workflowId: w.workflowId,
    })) as TrackedWorkflow;
    assert.equal(r.workflowId, w.workflowId);
    const refreshed = (await vscode.commands.executeCommand('wfs.refreshWorkflow', {
      kind: 'workflow',
      env: envValue(api, 'Sandbox'),
      workflowId: w.workflowId,
    })) as TrackedWorkflow;
    assert.equal(refreshed.workflowId, w.workflowId);
    assert.ok(refreshed.lastPolledAt! >= w.lastPolledAt!);
  });

  it('opens the raw JSON as a read-only JSON document, and copies the ids', async () => {
    const node = { kind: 'workflow', env: envValue(api, 'Sandbox'), workflowId: started.workflowId };
    const uri = (await vscode.commands.executeCommand('wfs.openWorkflowJson', node)) as string;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)!;
    assert.equal(doc.languageId, 'json');
    assert.equal(JSON.parse(doc.getText()).workflow.workflowId, started.workflowId);
    assert.equal(doc.uri.scheme, 'wfs-workflow', 'a content-provider document: VS Code opens it read-only');
    assert.equal(await vscode.commands.executeCommand('wfs.copyRunId', node), started.runId);
    assert.equal(await vscode.env.clipboard.readText(), started.runId);
    assert.equal(await vscode.commands.executeCommand('wfs.copyCorrelationId', node), started.correlationId);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('copies the workflowId; Go to Workflow by runId selects it in the explorer, and an unknown runId says so', async () => {
    const node: ExplorerNode = { kind: 'workflow', env: envValue(api, 'Sandbox'), workflowId: started.workflowId };
    assert.equal(await vscode.commands.executeCommand('wfs.copyWorkflowId', node), started.workflowId);
    assert.equal(await vscode.env.clipboard.readText(), started.workflowId);
    assert.equal(await vscode.commands.executeCommand('wfs.revealWorkflowByRunId', started.runId), started.workflowId);
    assert.deepEqual(api.treeView.selection, [node]);
    await vscode.commands.executeCommand('notifications.clearAll');
    assert.equal(await vscode.commands.executeCommand('wfs.revealWorkflowByRunId', 'wfrun_not_here'), undefined);
    await notificationsInCenter(/^No workflow in the explorer has runId wfrun_not_here\.$/, 1);
  });

  it('Refresh All Workflows reads again the workflows polling has let go (terminal ones): a change made elsewhere shows', async () => {
    // The reconfirm above started a new run: it completes, and polling lets it go.
    await until(
      api.workflows.onDidChange,
      () => api.workflows.store.workflow(envValue(api, 'Sandbox'), started.workflowId)?.status === 'complete',
      'the reconfirmed run to complete',
    );
    const before = api.workflows.store.workflow(envValue(api, 'Sandbox'), started.workflowId)!;
    // Reconfirmed elsewhere (another tool, a colleague): a new run the explorer has not read.
    const info = api.sandbox.info!;
    const signIn = await fetch(`${info.baseUrl}/user-management-services-ws/oauth2/002/signInWithPassword`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: info.username, password: info.password }),
    });
    const { access_token } = (await signIn.json()) as { access_token: string };
    const reconfirmed = await fetch(before.envelope!.links!.reconfirm!.href, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
    });
    assert.ok(reconfirmed.ok, `reconfirm answered ${reconfirmed.status}`);
    const { workflow } = (await reconfirmed.json()) as { workflow: { runId: string } };
    assert.notEqual(workflow.runId, before.runId);
    await vscode.commands.executeCommand('wfs.refresh');
    assert.equal(api.workflows.store.workflow(envValue(api, 'Sandbox'), started.workflowId)!.runId, workflow.runId);
  });

  it('an answer of over 1 MiB (read-oversized fault): the explorer keeps its known fields, says so in the raw JSON, and its saved state stays small', async () => {
    const node = { kind: 'workflow', env: envValue(api, 'Sandbox'), workflowId: started.workflowId };
    const faults = await fetch(`${api.sandbox.info!.baseUrl}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-secret': api.sandbox.info!.controlSecret },
      body: JSON.stringify({ fault: 'read-oversized' }),
    });
    assert.equal(faults.status, 201, 'the fault is injected');
    const refreshed = (await vscode.commands.executeCommand('wfs.refreshWorkflow', node)) as TrackedWorkflow;
    assert.equal(refreshed.workflowId, started.workflowId);
    const uri = (await vscode.commands.executeCommand('wfs.openWorkflowJson', node)) as string;
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)!;
    // The earlier test opened this document: VS Code asks the provider again and updates it a moment later.
    await until(
      vscode.workspace.onDidChangeTextDocument,
      () => doc.getText().includes('keptByTheToolkit'),
      'the open document to show the latest answer',
    );
    const shown = JSON.parse(doc.getText()) as {
      keptByTheToolkit?: string;
      workflow: { workflowId: string; ordered?: unknown };
    };
    assert.match(shown.keptByTheToolkit ?? '', /^The service answered \d{7} bytes; the explorer keeps at most 16384/);
    assert.deepEqual([shown.workflow.workflowId, shown.workflow.ordered], [started.workflowId, undefined]);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const saved = Buffer.byteLength(JSON.stringify(api.state.get('wfs.workflows')));
    assert.ok(saved < 64 * 1024, `the explorer's saved state is ${saved} bytes`);
  });

  it('a reconfirm whose answer is lost (the connection cut after the service took it): the workflow is read again, and its new run says it was reconfirmed', async () => {
    const info = api.sandbox.info!;
    // Between the extension and the sandbox: every request passes, but a reconfirm's connection is cut once the
    // sandbox answered it.
    let cut = 0;
    let failReads = 0;
    const { server: relay, url } = await startSandboxRelay(info.baseUrl, (req, res) => {
      if (req.method === 'POST' && /\/workflows\/wf_/.test(req.url!)) {
        cut++;
        req.socket.destroy();
        return true;
      }
      if (req.method === 'GET' && failReads > 0) {
        failReads--;
        res.writeHead(503).end();
        return true;
      }
      return false;
    });
    try {
      await signInThrough(api, 'Relay', url, info);
      await vscode.commands.executeCommand('wfs.addSession', info.sessions.staged);
      const w = (await vscode.commands.executeCommand('wfs.startWorkflow', {
        sessionId: info.sessions.staged,
        product: info.products[0],
        correlationId: `host-relay-${Date.now()}`,
      })) as TrackedWorkflow;
      await until(
        api.workflows.onDidChange,
        () => api.workflows.store.workflow(envValue(api, 'Relay'), w.workflowId)?.reconfirmAvailable === true,
        'the workflow to complete, reconfirmable',
      );
      // The store's record is updated in place: the run id as it is now.
      const beforeRunId = api.workflows.store.workflow(envValue(api, 'Relay'), w.workflowId)!.runId;
      await vscode.commands.executeCommand('notifications.clearAll');
      const after = (await vscode.commands.executeCommand('wfs.reconfirmWorkflow', {
        kind: 'workflow',
        env: envValue(api, 'Relay'),
        workflowId: w.workflowId,
      })) as TrackedWorkflow | undefined;
      assert.equal(cut, 1, 'the reconfirm was sent, and its answer lost');
      assert.ok(after && after.runId !== beforeRunId, `a new run: ${after?.runId} after ${beforeRunId}`);
      await notificationsInCenter(
        new RegExp(
          `^The reconfirm's answer was lost \\(.+\\), but ${w.workflowId} shows a new run \\(${after.runId}\\): it was reconfirmed\\.$`,
        ),
        1,
      );

      // Lost again, and the workflow cannot be read either: whether it took place is unknown, and the message says
      // how to find out.
      await until(
        api.workflows.onDidChange,
        () => api.workflows.store.workflow(envValue(api, 'Relay'), w.workflowId)?.reconfirmAvailable === true,
        'the new run to complete',
      );
      failReads = 1;
      const unknown = await vscode.commands.executeCommand('wfs.reconfirmWorkflow', {
        kind: 'workflow',
        env: envValue(api, 'Relay'),
        workflowId: w.workflowId,
      });
      assert.deepEqual([unknown, cut], [undefined, 2]);
      const notice = new RegExp(
        `^The reconfirm's answer was lost \\(.+\\), and ${w.workflowId} could not be read to see whether it took place \\(.+\\)\\. It may have been reconfirmed and billed: refresh the workflow \\(a new runId means it was\\) before reconfirming again\\.$`,
      );
      await notificationsInCenter(notice, 1);
      assert.deepEqual(await notificationButtons(notice), ['Refresh Workflow']);
    } finally {
      await vscode.commands.executeCommand('wfs.switchEnvironment', 'Sandbox');
      await setSetting('environments', undefined);
      relay.closeAllConnections();
      relay.close();
    }
  });

  it('a refused start (SESSION_EMPTY) adds nothing to the tree', async () => {
    const info = api.sandbox.info!;
    const before = api.workflows.store.workflows(envValue(api, 'Sandbox')).length;
    const r = await vscode.commands.executeCommand('wfs.startWorkflow', {
      sessionId: info.sessions.empty,
      product: info.products[0],
      correlationId: `host-empty-${Date.now()}`,
    });
    assert.equal(r, undefined);
    assert.equal(api.workflows.store.workflows(envValue(api, 'Sandbox')).length, before);
  });

  it('removing the workflow and the session forgets them', async () => {
    await vscode.commands.executeCommand('wfs.removeWorkflow', {
      kind: 'workflow',
      env: envValue(api, 'Sandbox'),
      workflowId: started.workflowId,
    });
    assert.equal(api.workflows.store.workflow(envValue(api, 'Sandbox'), started.workflowId), undefined);
    await vscode.commands.executeCommand('wfs.removeSession', {
      kind: 'session',
      env: envValue(api, 'Sandbox'),
      sessionId: api.sandbox.info!.sessions.staged,
    });
    assert.equal(api.explorer.currentState(), 'no-sessions');
  });
});
