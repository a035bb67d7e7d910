// `wfs mcp`'s lines on a terminal: the HTTP ready line says where to connect and with which token; the other ready
// lines (sandbox, listen) keep their own text.
import assert from 'node:assert/strict';
import { renderHuman } from '../../../src/cli/render/humanText';
import { makeStyle } from '../../../src/cli/render/style';

describe('wfs mcp on a terminal', () => {
  const s = makeStyle(false);

  it('the HTTP ready line: the URL, the token and how to use it, the app and who signs', () => {
    const r = renderHuman(
      {
        event: 'ready',
        transport: 'http',
        url: 'http://127.0.0.1:3333/mcp',
        token: 'tok-123',
        tools: ['wfs_environment', 'wfs_list_deliveries'],
        deliveries: 'the history file d.jsonl (read-only)',
        forwardTo: null,
        signer: { issuer: 'https://sandbox.example/webhooks', jwksUrl: 'http://127.0.0.1:4010/.well-known/jwks.json' },
      },
      s,
    );
    assert.equal(r.stream, 'stdout');
    assert.match(r.text, /^✓ MCP server at http:\/\/127\.0\.0\.1:3333\/mcp\n/);
    assert.match(r.text, /token {7}tok-123 {2}\(every request: Authorization: Bearer <token>; new at each start\)/);
    assert.match(r.text, /your app {4}none \(--forward-to URL\)/);
    assert.match(
      r.text,
      /signed by {3}https:\/\/sandbox\.example\/webhooks \(key set http:\/\/127\.0\.0\.1:4010\/\.well-known\/jwks\.json\)/,
    );
  });

  it("wfs listen's ready line is still its own", () => {
    const r = renderHuman(
      { event: 'ready', url: 'http://127.0.0.1:4011/webhooks', publicUrl: null, issuers: ['i'] },
      s,
    );
    assert.match(r.text, /^✓ Receiver listening at http:\/\/127\.0\.0\.1:4011\/webhooks/);
  });
});
