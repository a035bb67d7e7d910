// The forms an app can echo a credential back in (found by the independent check of #74): base64, base64url, a
// JWT's signature alone, UTF-16. Each is taken out of an app's answer before it is kept or shown.
import assert from 'node:assert/strict';
import { answerBodyFields, BODY_WITHHELD } from '../../../src/core/webhooks/forwardAnswer';
import { credentialTextForms } from '../../../src/core/webhooks/credentialForms';
import { redactResult } from '../../../src/core/assistant/resultRedaction';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL3gifQ.c2lnbmF0dXJlLWJ5dGVzLW9mLXRoZS10b2tlbi0xMjM0NQ';

describe('credential forms', () => {
  it('the text forms: the value, base64 with and without padding, base64url, and a JWT signature', () => {
    const forms = credentialTextForms(TOKEN);
    assert.ok(forms.includes(TOKEN));
    assert.ok(forms.includes(Buffer.from(TOKEN).toString('base64')));
    assert.ok(forms.includes(Buffer.from(TOKEN).toString('base64url')));
    assert.ok(forms.includes(TOKEN.split('.')[2]!));
    assert.deepEqual(credentialTextForms('short'), []);
  });

  it("an app's answer echoing a credential in any of them keeps none of it", () => {
    for (const echoed of [
      `tok=${Buffer.from(TOKEN).toString('base64')}`,
      `tok=${Buffer.from(TOKEN).toString('base64url')}`,
      `sig=${TOKEN.split('.')[2]}`,
    ]) {
      const kept = answerBodyFields(Buffer.from(echoed), false, [TOKEN]);
      assert.ok('body' in kept);
      assert.match(kept.body, /<redacted>/);
      assert.ok(!kept.body.includes(TOKEN.split('.')[2]!.slice(0, 20)));
    }
    assert.deepEqual(answerBodyFields(Buffer.from(`echo ${TOKEN}`, 'utf16le'), false, [TOKEN]), {
      bodyWithheld: BODY_WITHHELD,
    });
    assert.deepEqual(answerBodyFields(Buffer.from('nothing of it'), false, [TOKEN]), { body: 'nothing of it' });
  });

  it('a tool answer: a base64 form in text is redacted, a UTF-16 body in base64 withheld', () => {
    const out = redactResult(
      {
        body: `tok=${Buffer.from(TOKEN).toString('base64')}`,
        bodyBase64: Buffer.from(`echo ${TOKEN}`, 'utf16le').toString('base64'),
      },
      [TOKEN],
    ) as Record<string, string>;
    assert.ok(!out.body.includes(Buffer.from(TOKEN).toString('base64').slice(0, 30)));
    assert.equal(out.bodyBase64, undefined);
    assert.ok(out.bodyWithheld);
  });
});
