// Whose forward settings the receiver uses: a workspace's only when trusted and agreed to, the agreement tied to the
import '../helpers/vscodeL10n';
// workspace and the very value, and the question naming the targets and what of the user's they replace.
import assert from 'node:assert/strict';
import {
  agreementKey,
  chooseForward,
  MAX_AGREEMENTS,
  withAgreement,
  workspaceForwardQuestion,
  workspaceValues,
} from '../../../src/extension/receiver/workspaceForward';

const mine = { rules: undefined, passThrough: undefined };
const theirs = { rules: [{ url: 'http://127.0.0.1:2375/v1.43/containers/create' }], passThrough: true };

describe('workspace forward settings', () => {
  it('are used only in a trusted workspace, once agreed to; otherwise the user’s own', () => {
    assert.deepEqual(chooseForward({ user: mine, workspace: theirs, trusted: false, agreed: true }), {
      values: mine,
      from: 'user',
    });
    assert.deepEqual(chooseForward({ user: mine, workspace: theirs, trusted: true, agreed: false }), {
      values: mine,
      from: 'user',
    });
    assert.deepEqual(chooseForward({ user: mine, workspace: theirs, trusted: true, agreed: true }), {
      values: theirs,
      from: 'workspace',
    });
    // Setting by setting: pass-through alone from the workspace keeps the user's rules.
    const userRules = { rules: [{ url: 'http://127.0.0.1:3000/hooks' }], passThrough: false };
    assert.deepEqual(
      chooseForward({ user: userRules, workspace: { passThrough: true }, trusted: true, agreed: true }),
      {
        values: { rules: userRules.rules, passThrough: true },
        from: 'workspace',
      },
    );
  });

  it('an empty list of rules from a workspace adds nothing; pass-through alone is a value', () => {
    assert.equal(workspaceValues({}), undefined);
    assert.equal(workspaceValues({ rules: [] }), undefined);
    assert.deepEqual(workspaceValues({ rules: [], passThrough: false }), { passThrough: false });
    assert.deepEqual(workspaceValues(theirs), theirs);
  });

  it('an agreement holds for one workspace and one value: other rules, or another workspace, are asked again', () => {
    const a = agreementKey('file:///repo', 'settings', theirs);
    assert.equal(a, agreementKey('file:///repo', 'settings', { ...theirs }));
    assert.notEqual(a, agreementKey('file:///other-clone', 'settings', theirs));
    assert.notEqual(a, agreementKey('file:///repo', 'task', theirs));
    assert.notEqual(a, agreementKey('file:///repo', 'settings', { ...theirs, passThrough: false }));
    assert.notEqual(
      a,
      agreementKey('file:///repo', 'settings', { rules: [{ url: 'http://127.0.0.1:2376/x' }], passThrough: true }),
    );
    assert.match(a, /^[0-9a-f]{64}$/, 'a hash: the record stays small whatever the value holds');
  });

  it('the agreements kept are bounded, the newest last', () => {
    let kept: string[] = [];
    for (let i = 0; i < MAX_AGREEMENTS + 5; i++) kept = withAgreement(kept, `k${i}`);
    assert.equal(kept.length, MAX_AGREEMENTS);
    assert.equal(kept.at(-1), `k${MAX_AGREEMENTS + 4}`);
    assert.ok(!kept.includes('k0'));
    assert.deepEqual(withAgreement(['a', 'b'], 'a'), ['b', 'a'], 'agreed again: moved to the newest');
  });

  it('the question names where the value comes from, its targets (loopback too), pass-through and what it replaces', () => {
    const q = workspaceForwardQuestion({
      where: "This workspace's settings (.vscode/settings.json)",
      targets: ['http://127.0.0.1:2375/v1.43/containers/create', 'http://127.0.0.1:2375/v1.43/containers/create'],
      what: 'every verified delivery',
      passThrough: true,
      replaces: 'your own wfs.receiver.forwardTo (http://127.0.0.1:3000/hooks)',
    });
    assert.equal(q.message, "Use this workspace's forward settings?");
    assert.match(
      q.detail,
      /^This workspace's settings \(\.vscode\/settings\.json\) would forward every verified delivery to http:\/\/127\.0\.0\.1:2375\/v1\.43\/containers\/create\. /,
    );
    assert.ok(q.detail.includes("answered with your apps' status"));
    assert.ok(q.detail.includes('take the place of your own wfs.receiver.forwardTo (http://127.0.0.1:3000/hooks)'));
    const many = workspaceForwardQuestion({
      where: 'W',
      targets: Array.from({ length: 8 }, (_, i) => `http://127.0.0.1:${4000 + i}/`),
      what: 'every verified delivery',
      passThrough: false,
      replaces: 'x',
    });
    assert.ok(many.detail.includes('http://127.0.0.1:4004/ and 3 more.'), many.detail);
    assert.ok(!many.detail.includes('4005'));
    const passOnly = workspaceForwardQuestion({ where: 'W', targets: [], what: '', passThrough: true, replaces: 'y' });
    assert.match(passOnly.detail, /^W would turn on pass-through\./);
  });
});
