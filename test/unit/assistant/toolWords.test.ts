// Issue #78: what a person reads of the assistant's tools in VS Code (the progress line, the confirmation before a
// send or a start, the billed start's and the audit's questions) is worded through the extension's l10n bundle: in
// the pseudo-locale no English of ours is left once the values (names, addresses, ids: data) are taken out. The
// English stays what it was, and MCP elicitation still asks in English.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { l10n } from 'vscode';
import { auditTargetAsked, auditTargetQuestion } from '../../../src/core/assistant/auditTargetRule';
import { billedStartAsked, billedStartQuestion } from '../../../src/core/assistant/billedStartRule';
import { ASSISTANT_TOOLS, previewTool, type WordedPreview } from '../../../src/core/assistant/toolRegistry';
import { english, isSaid, worded, type Said, type Wording } from '../../../src/core/presentation/said';
import { confirmationMessages, invocationMessage } from '../../../src/extension/assistant/toolWords';
import { plainLetters, pseudoLocalize } from '../l10n/pseudoLocale';
import { assistantFixture, type AssistantFixture } from './assistantFixture';

const ROOT = join(__dirname, '../../../..');

/** The pseudo-locale's bundle, as vscode.l10n would read it; `missed` collects messages it does not hold. */
function pseudoWords(): { words: Pick<typeof l10n, 't'>; wording: Wording; missed: Set<string> } {
  const bundle = JSON.parse(readFileSync(join(ROOT, 'l10n/bundle.l10n.json'), 'utf8')) as Record<string, unknown>;
  const pseudo = Object.fromEntries(Object.keys(bundle).map((k) => [k, pseudoLocalize(k)]));
  const missed = new Set<string>();
  const wording: Wording = (message, ...values) => {
    if (!(message in pseudo)) missed.add(message);
    return (pseudo[message] ?? message).replace(/\{(\d+)\}/g, (w, i: string) => String(values[Number(i)] ?? w));
  };
  const t = ((message: string, ...values: (string | number)[]) => wording(message, ...values)) as Pick<
    typeof l10n,
    't'
  >['t'];
  return { words: { t }, wording, missed };
}

/** The values of a Said, all the way down: data, shown as it is in every language. */
function dataOf(s: Said): string[] {
  return (s.values ?? []).flatMap((v) => (isSaid(v) ? dataOf(v) : [String(v)]));
}

/** The values shown unquoted: the protocol's field names (labels in every language), the topic in a title, and
 * numbers. Any other value is quoted: a word of ours passed as a value would escape the bundle unseen. */
const UNQUOTED = new Set([
  'correlationId',
  'webhookId',
  'subTopic',
  'tenantId',
  'actorId',
  'data',
  'workflow/completed',
]);

/** What is left of our words once the values are taken out: empty when every word came from the bundle. */
function englishLeft(shown: string, values: string[]): string {
  const words = values.filter((v) => !v.startsWith('"') && !/^\d+$/.test(v) && !UNQUOTED.has(v));
  assert.deepEqual(words, [], 'values are data, quoted; our words are messages');
  let rest = shown;
  for (const v of [...values].sort((a, b) => b.length - a.length)) rest = rest.split(v).join(' ');
  return plainLetters(rest);
}

const BILLED = {
  environment: 'Staging',
  serviceOrigin: 'https://staging.example.test',
  sessionId: 'sess-demo-staged',
  product: { service: 'Appraisal', model: 'Standard' },
  correlationId: 'c-7',
};

describe("assistant: the tools' words for people (#78)", function () {
  this.timeout(20_000);
  let f: AssistantFixture;
  before(async () => {
    f = await assistantFixture();
    f.appUrl = 'http://127.0.0.1:3000/hooks';
    f.ctx.readFixture = async () => ({
      file: '/work/app/webhooks/done.webhook.json',
      text: JSON.stringify({
        wfsFixture: 1,
        topic: 'workflow/completed',
        subTopic: 'status:workflow/completed',
        tenant: 't',
        body: { webhookId: '{{webhookId}}', topic: 'workflow/completed', data: { runId: 'wfrun_fixture' } },
      }),
    });
    const event = { webhookId: 'wh-1', topic: 'workflow/completed', subTopic: 'status:workflow/completed', data: {} };
    assert.equal((await f.deliver(event)).status, 200);
  });
  after(() => f.stop());

  /** A preview of every tool that sends or starts, with inputs that take each of its shapes. */
  async function previews(): Promise<{ name: string; p: WordedPreview }[]> {
    const id = f.history.all().at(-1)!.id;
    const inputs: [string, object][] = [
      ['wfs_replay_to_app', { deliveryId: id }],
      ['wfs_replay_to_app', { deliveryId: id, freshWebhookId: true }],
      ['wfs_replay_to_app', { fixture: 'webhooks/done.webhook.json' }],
      ['wfs_send_event', { to: 'receiver', topic: 'workflow/completed' }],
      [
        'wfs_send_event',
        {
          to: 'app',
          topic: 'workflow/completed',
          subTopic: 's',
          tenantId: 't',
          actorId: 'a',
          webhookId: 'w',
          data: {},
        },
      ],
      ['wfs_audit_receiver', { target: 'receiver' }],
      ['wfs_audit_receiver', { target: 'app' }],
      ['wfs_audit_receiver', { target: 'http://127.0.0.1:4000/hooks' }],
      ['wfs_start_sandbox_workflow', {}],
      ['wfs_start_billed_workflow', { sessionId: 's-1', service: 'Appraisal', model: 'Standard' }],
    ];
    const out = [];
    for (const [name, input] of inputs) {
      const p = await previewTool(name, input, f.ctx);
      assert.ok(p, `${name} ${JSON.stringify(input)} has a preview`);
      out.push({ name, p });
    }
    return out;
  }

  it("every tool's progress line is worded whole through the bundle; its English is unchanged", () => {
    const { words, missed } = pseudoWords();
    const running = { reads: 'Reading', sends: 'Sending', starts: 'Starting' };
    for (const tool of ASSISTANT_TOOLS) {
      const shown = invocationMessage(tool, words);
      assert.equal(plainLetters(shown), '', `${tool.name}: ${shown}`);
      assert.equal(invocationMessage(tool), `${running[tool.effect]}: ${tool.title}`);
      assert.equal(english(tool.titleSaid), tool.title);
    }
    assert.deepEqual([...missed], [], 'each message is in l10n/bundle.l10n.json');
  });

  it('every confirmation (title and message) has no English of ours in the pseudo-locale, values out', async () => {
    const { words, missed } = pseudoWords();
    const all = await previews();
    assert.deepEqual(
      [...new Set(all.map((x) => x.name))].sort(),
      ASSISTANT_TOOLS.filter((t) => t.effect !== 'reads')
        .map((t) => t.name)
        .sort(),
      'every tool that sends or starts is covered',
    );
    for (const { name, p } of all) {
      const shown = confirmationMessages(p, words);
      const values = [...dataOf(p.said.title), ...dataOf(p.said.message)];
      assert.equal(englishLeft(shown.title, values), '', `${name} title: ${shown.title}`);
      assert.equal(englishLeft(shown.message, values), '', `${name} message: ${shown.message}`);
      // The quoted values are there as they are, on their own lines as in English.
      assert.equal(shown.message.split('\n').length, p.message.split('\n').length, shown.message);
      assert.deepEqual(confirmationMessages(p), { title: p.title, message: p.message });
    }
    assert.deepEqual([...missed], [], 'each message is in l10n/bundle.l10n.json');
  });

  it('the English previews read as before: labelled, quoted values, our words outside the quotes', async () => {
    const all = await previews();
    const replay = all.find((x) => x.name === 'wfs_replay_to_app')!.p;
    const id = f.history.all().at(-1)!.id;
    assert.match(replay.message, new RegExp(`\\nWhat: delivery "${id}"\\nTopic: "workflow/completed"\\n`));
    assert.match(replay.message, /\nwebhookId: "wh-1"\nTo: "http:\/\/127\.0\.0\.1:3000\/hooks"$/);
    const fresh = all.filter((x) => x.name === 'wfs_replay_to_app')[1]!.p;
    assert.match(fresh.message, new RegExp(`\\nWhat: delivery "${id}" under a fresh webhookId\\n`));
    const fixture = all.filter((x) => x.name === 'wfs_replay_to_app')[2]!.p;
    assert.match(fixture.message, /\nWhat: the fixture "\/work\/app\/webhooks\/done\.webhook\.json"\n/);
    const event = all.find((x) => x.name === 'wfs_send_event')!.p;
    assert.equal(event.title, 'Send a signed workflow/completed event');
    assert.match(event.message, new RegExp(`\\nTo: the receiver at ${JSON.stringify(f.receiverUrl)}$`));
    const audit = all.find((x) => x.name === 'wfs_audit_receiver')!.p;
    assert.match(audit.message, /^Send the audit's 30 requests as POSTs to the receiver: /);
  });

  it("the billed start's and the audit's questions: worded in the pseudo-locale, English for MCP elicitation", () => {
    const { wording, missed } = pseudoWords();
    for (const s of [billedStartAsked(BILLED), auditTargetAsked('https://elsewhere.example.test/hooks')]) {
      const shown = worded(s, wording);
      assert.equal(englishLeft(shown, dataOf(s)), '', shown);
    }
    assert.deepEqual([...missed], []);
    assert.equal(
      billedStartQuestion(BILLED),
      [
        'Start this BILLED workflow? The service bills every workflow it starts.',
        'Environment: "Staging"',
        'Service address: "https://staging.example.test"',
        'Session: "sess-demo-staged"',
        'Service: "Appraisal"',
        'Model: "Standard"',
        'correlationId: "c-7"',
      ].join('\n'),
    );
    assert.match(
      auditTargetQuestion('https://elsewhere.example.test/hooks'),
      /\nAddress: "https:\/\/elsewhere\.example\.test\/hooks"$/,
    );
  });
});
