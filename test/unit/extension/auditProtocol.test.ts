// What the audit scorecard accepts from its webview: each message type with its fields, and nothing else.
import assert from 'node:assert/strict';
import { parseAuditRequest } from '../../../src/extension/panel/auditProtocol';

describe('audit panel protocol: messages from the webview are validated on arrival', () => {
  const accepted: [string, unknown, unknown][] = [
    ['ready', { type: 'ready' }, { type: 'ready' }],
    ['rerun, its other fields dropped', { type: 'rerun', target: 'http://evil.test' }, { type: 'rerun' }],
    ['export as Markdown', { type: 'export', format: 'md' }, { type: 'export', format: 'md' }],
    ['export as JSON', { type: 'export', format: 'json' }, { type: 'export', format: 'json' }],
    ['copy-curl of a case', { type: 'copy-curl', id: 'genuine' }, { type: 'copy-curl', id: 'genuine' }],
  ];
  for (const [name, message, parsed] of accepted)
    it(`accepts ${name}`, () => assert.deepEqual(parseAuditRequest(message), parsed));

  const refused: [string, unknown, RegExp][] = [
    ['not an object', 'ready', /not a message object with a type/],
    ['an array', [{ type: 'ready' }], /not a message object with a type/],
    ['no type', { format: 'md' }, /not a message object with a type/],
    ['an unknown type', { type: 'delete-everything' }, /an unknown message type "delete-everything"/],
    ['export in another format', { type: 'export', format: 'html' }, /a malformed "export" message/],
    ['copy-curl without an id', { type: 'copy-curl' }, /a malformed "copy-curl" message/],
    ['copy-curl with a numeric id', { type: 'copy-curl', id: 7 }, /a malformed "copy-curl" message/],
  ];
  for (const [name, message, why] of refused)
    it(`refuses ${name}`, () => {
      const r = parseAuditRequest(message);
      assert.ok('invalid' in r, `${JSON.stringify(message)} was accepted`);
      assert.match(r.invalid, why);
    });
});
