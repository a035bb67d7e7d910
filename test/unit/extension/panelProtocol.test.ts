// What the webhook panel accepts from its webview: each message type with its fields, and nothing else.
import assert from 'node:assert/strict';
import { parsePanelRequest } from '../../../src/extension/panel/panelProtocol';

describe('webhook panel protocol: messages from the webview are validated on arrival', () => {
  it('accepts every well-formed request, keeping only the known fields', () => {
    assert.deepEqual(
      parsePanelRequest({
        type: 'filter',
        filter: { topic: 't', status: 403, verification: 'refused', text: 'x', extra: 1 },
      }),
      { type: 'filter', filter: { topic: 't', status: 403, verification: 'refused', text: 'x' } },
    );
    assert.deepEqual(parsePanelRequest({ type: 'ready', filter: {}, paused: false, selectedId: null }), {
      type: 'ready',
      filter: {},
      paused: false,
      selectedId: null,
    });
    assert.deepEqual(parsePanelRequest({ type: 'select', id: 'abc' }), { type: 'select', id: 'abc' });
    assert.deepEqual(parsePanelRequest({ type: 'override', status: null }), { type: 'override', status: null });
    assert.deepEqual(parsePanelRequest({ type: 'override', status: 503 }), { type: 'override', status: 503 });
    assert.deepEqual(parsePanelRequest({ type: 'action', action: 'copy-curl', id: 'abc' }), {
      type: 'action',
      action: 'copy-curl',
      id: 'abc',
    });
    assert.deepEqual(parsePanelRequest({ type: 'action', action: 'export-all' }), {
      type: 'action',
      action: 'export-all',
      id: undefined,
    });
    assert.deepEqual(parsePanelRequest({ type: 'clear' }), { type: 'clear' });
    assert.deepEqual(
      parsePanelRequest({ type: 'start-receiver', port: 1 }),
      { type: 'start-receiver' },
      'nothing of the message but its type is used',
    );
  });

  it('refuses malformed and unknown messages with a reason, never an exception', () => {
    const cases: unknown[] = [
      null,
      'ready',
      [],
      { type: 42 },
      { type: 'select' },
      { type: 'select', id: 7 },
      { type: 'filter', filter: { status: '200' } },
      { type: 'filter', filter: { verification: 'maybe' } },
      { type: 'filter' },
      { type: 'override', status: 99 },
      { type: 'override', status: 150 },
      { type: 'override', status: 200.5 },
      { type: 'action', action: 'rm -rf', id: 'x' },
      { type: 'action', action: 'replay-local', id: {} },
      { type: 'pause', paused: 'yes' },
      { type: 'ready', selectedId: 5 },
      { type: 'rendered', count: 'many' },
      { type: 'report', token: 't' },
      { type: '__proto__' },
      { type: 'eval', code: '1' },
    ];
    for (const m of cases) {
      const parsed = parsePanelRequest(m);
      assert.ok('invalid' in parsed, `refused: ${JSON.stringify(m)}`);
      assert.match(parsed.invalid, /message/);
    }
  });
});
