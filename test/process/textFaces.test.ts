// The text face of the commands that printed raw JSON on a terminal before: `wfs sandbox`, `wfs listen`, `wfs audit`
// and the sandbox's control commands, each on a pseudo-terminal (text, no JSON) and piped (the JSON lines, fields
// unchanged). Waiting is on lines and exits.
import assert from 'node:assert/strict';
import { startSandboxProcess, WfsProcess, type SandboxProcess } from './helpers/wfsProcess';
import { hasScript, onTerminal } from './helpers/terminal';
import { testWebhookArgs } from './helpers/commandArgs';

const NO_JSON = /\{"event"/;

describe('text on a terminal for sandbox, listen, audit and the sandbox control commands', function () {
  this.timeout(60_000);
  let s: SandboxProcess;
  before(async function () {
    if (!hasScript) this.skip();
    s = await startSandboxProcess();
  });
  after(async () => {
    await s?.stop();
  });

  it('wfs sandbox on a terminal: where it is, the user, the secret and the lines to paste; piped, the ready JSON as before', async () => {
    const t = onTerminal(['sandbox', '--port', '0'], { NO_COLOR: '1' });
    const text = await t.waitFor(/Ctrl-C stops it\./);
    t.kill();
    assert.doesNotMatch(text, NO_JSON);
    assert.match(text, /^✓ Sandbox ready at http:\/\/127\.0\.0\.1:\d+\n/);
    assert.match(text, /\n {2}user +demo \/ \S+\n/);
    assert.match(text, /\n {2}control secret +[0-9a-f]{64}\n/);
    assert.match(
      text,
      /export WFS_BASE_URL=http:\/\/127\.0\.0\.1:\d+ WFS_USERNAME=demo WFS_PASSWORD=\S+ WFS_SANDBOX_SECRET=[0-9a-f]{64}/,
    );
    assert.deepEqual(Object.keys(s.info).slice(0, 3), ['event', 'baseUrl', 'testWebhookUrl']);
  });

  it('wfs sandbox fault throttle --count 3: one line on a terminal; the sandbox then answers 429 three times; JSON piped', async () => {
    const t = onTerminal(['sandbox', 'fault', 'throttle', '--count', '3', '--sandbox-url', s.info.baseUrl], {
      NO_COLOR: '1',
    });
    assert.equal(await t.exited, 0, t.out());
    assert.equal(t.out(), '✓ Injected throttle ×3; pending now: throttle ×3\n');
    const listed = new WfsProcess(['sandbox', 'faults', '--sandbox-url', s.info.baseUrl]);
    assert.equal(await listed.exitCode(), 0, listed.stderr);
    assert.deepEqual(listed.lines, [
      {
        event: 'faults',
        pending: { throttle: 3 },
        kinds: listed.lines[0]!.kinds,
        delivery: null,
        deliveryKinds: listed.lines[0]!.deliveryKinds,
      },
    ]);
    assert.ok(listed.lines[0]!.kinds.includes('start-500'));
    const answers: number[] = [];
    for (let i = 0; i < 4; i++)
      answers.push((await fetch(`${s.info.baseUrl}/workflow-services-ws/resources/v1/workflows`)).status);
    assert.deepEqual(answers.slice(0, 3), [429, 429, 429]);
    assert.notEqual(answers[3], 429);
  });

  it('wfs sandbox fault start-500, then faults --clear (text) and faults (JSON): nothing pending', async () => {
    const inject = new WfsProcess(['sandbox', 'fault', 'start-500', '--sandbox-url', s.info.baseUrl]);
    assert.equal(await inject.exitCode(), 0, inject.stderr);
    assert.deepEqual(inject.lines, [
      { event: 'fault-injected', fault: 'start-500', count: 1, pending: { 'start-500': 1 } },
    ]);
    const clear = onTerminal(['sandbox', 'faults', '--clear', '--sandbox-url', s.info.baseUrl], { NO_COLOR: '1' });
    assert.equal(await clear.exited, 0, clear.out());
    assert.equal(clear.out(), '✓ Faults cleared; pending now: none\n');
    const listed = onTerminal(['sandbox', 'faults', '--sandbox-url', s.info.baseUrl], { NO_COLOR: '1' });
    assert.equal(await listed.exited, 0);
    assert.match(listed.out(), /^Pending faults: none\n {2}kinds: start-500, /);
  });

  it('wfs sandbox rotate-key: the new kid is in the key set; text on a terminal, JSON piped', async () => {
    const piped = new WfsProcess(['sandbox', 'rotate-key', '--sandbox-url', s.info.baseUrl]);
    assert.equal(await piped.exitCode(), 0, piped.stderr);
    const kid = piped.lines[0]!.kid as string;
    assert.deepEqual(piped.lines, [{ event: 'key-rotated', kid }]);
    const keys = (await (await fetch(s.info.jwksUrl)).json()) as { keys: { kid: string }[] };
    assert.ok(keys.keys.some((k) => k.kid === kid));
    assert.ok(
      keys.keys.some((k) => k.kid === s.info.kid),
      'the previous key stays',
    );
    const t = onTerminal(['sandbox', 'rotate-key', '--sandbox-url', s.info.baseUrl], { NO_COLOR: '1' });
    assert.equal(await t.exited, 0);
    assert.match(
      t.out(),
      /^✓ The sandbox signs with a new key now: kid \S+ \(the previous key stays in its key set\)\n$/,
    );
  });

  it('the control commands: an unknown fault is a usage error with a suggestion; a dead sandbox is one line, exit 1', async () => {
    const word = new WfsProcess(['sandbox', 'rotate-kye', '--sandbox-url', s.info.baseUrl]);
    assert.equal(await word.exitCode(), 2);
    assert.match(
      word.lines[0]!.message,
      /^unknown command "sandbox rotate-kye" \(did you mean `wfs sandbox rotate-key`\?\)/,
    );
    const typo = new WfsProcess(['sandbox', 'fault', 'throtle', '--sandbox-url', s.info.baseUrl]);
    assert.equal(await typo.exitCode(), 2);
    assert.match(typo.lines[0]!.message, /^unknown fault "throtle" \(did you mean throttle\?\)/);
    const dead = onTerminal(['sandbox', 'faults', '--sandbox-url', 'http://127.0.0.1:9'], {
      NO_COLOR: '1',
      WFS_SANDBOX_SECRET: 'x',
    });
    assert.equal(await dead.exited, 1);
    assert.equal(
      dead.out(),
      '✗ nothing is listening at http://127.0.0.1:9 (ECONNREFUSED): is `wfs sandbox` running there? Its ready line gives its baseUrl (--sandbox-url names it here).\n  code  ECONNREFUSED\n',
    );
  });

  it('wfs listen on a terminal: a ready line and one line per delivery, verified or refused with the step', async () => {
    const t = onTerminal(['listen', '--trust-sandbox', s.info.baseUrl], { NO_COLOR: '1' });
    const ready = await t.waitFor(/Ctrl-C stops it\./);
    assert.doesNotMatch(ready, NO_JSON);
    const url = /^✓ Receiver listening at (\S+)/m.exec(ready)![1]!;
    assert.match(ready, /\n {2}public address +none \(loopback only; --tunnel or --public-url\)\n {2}trusts +\S+/);
    const sent = new WfsProcess(testWebhookArgs(url), s.env);
    assert.equal(await sent.exitCode(), 0, sent.stdout + sent.stderr);
    const text = await t.waitFor(/✓ 200 +verified/);
    assert.match(text, /✓ 200 {2}verified {2}workflow\/completed {2}[\w-]+ {2}\d+ bytes\n/);
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const refused = await t.waitFor(/✗ 403/);
    assert.match(refused, /✗ 403 {2}not verified {2}2 bytes\n {4}step 1 \(bearer token\): /);
    t.kill();
  });

  it('wfs audit on a terminal: a line per case, the summary; piped, the same case and summary JSON', async () => {
    const receiver = new WfsProcess(['listen', '--trust-sandbox', s.info.baseUrl]);
    const { url } = await receiver.event('ready');
    const t = onTerminal(['audit', '--target', url, '--sandbox-url', s.info.baseUrl], { NO_COLOR: '1' });
    assert.equal(await t.exited, 0, t.out());
    const text = t.out();
    assert.doesNotMatch(text, NO_JSON);
    assert.match(text, /^✓ genuine +A genuine delivery\n✓ duplicate +The same webhookId again\n/);
    assert.match(text, /\n✓ exp-75s-past +exp 75 seconds in the past\n/);
    assert.match(text, /\n✓ 30\/30 passed: http:\/\/127\.0\.0\.1:\d+\/webhooks\n {2}it must trust issuer /);
    const piped = new WfsProcess(['audit', '--target', url, '--sandbox-url', s.info.baseUrl]);
    assert.equal(await piped.exitCode(), 0, piped.stderr);
    assert.deepEqual(Object.keys(piped.lines[0]!), ['event', 'id', 'title', 'expected', 'status', 'passed', 'detail']);
    assert.deepEqual(Object.keys(piped.events('summary')[0]!), [
      'event',
      'target',
      'issuer',
      'audience',
      'jwksUrl',
      'passed',
      'failed',
      'total',
    ]);
    await receiver.stopCleanly();
  });

  it('wfs audit of a target where nothing listens: one line saying so and what to do, exit 8; piped, one error line', async () => {
    const t = onTerminal(['audit', '--target', 'http://127.0.0.1:9/webhooks', '--sandbox-url', s.info.baseUrl], {
      NO_COLOR: '1',
    });
    assert.equal(await t.exited, 8, t.out());
    assert.equal(
      t.out(),
      '✗ nothing is listening at http://127.0.0.1:9 (ECONNREFUSED): nothing was audited. Start your receiver (it must listen at http://127.0.0.1:9/webhooks), or check --target.\n  code  ECONNREFUSED\n',
    );
    const piped = new WfsProcess(['audit', '--target', 'http://127.0.0.1:9/webhooks', '--sandbox-url', s.info.baseUrl]);
    assert.equal(await piped.exitCode(), 8);
    assert.deepEqual(
      piped.lines.map((l) => [l.event, l.kind, l.code]),
      [['error', 'target-unreachable', 'ECONNREFUSED']],
    );
  });
});
