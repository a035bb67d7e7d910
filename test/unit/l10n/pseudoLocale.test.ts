// The pseudo-locale keeps what VS Code reads (placeholders, codicons, setting links, link targets) and changes every
// other letter, so a host run in qps-ploc can tell a translated string from one that leaked in English.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { englishLeaks, ourEnglishWords, plainLetters, pseudoLocalize, writePseudoLocale } from './pseudoLocale';

const ROOT = join(__dirname, '../../../..');
const placeholders = (s: string) => s.match(/\{\d+\}|\$\([\w~-]+\)/g) ?? [];

describe('l10n: the pseudo-locale', () => {
  it('wraps and accents a string, keeping placeholders and codicons', () => {
    assert.equal(pseudoLocalize('Start Workflow'), '[Šţàŕţ Ŵôŕķƒĺôŵ]');
    assert.equal(pseudoLocalize('$(play) Sent to {0}: {1}'), '[$(play) Šéñţ ţô {0}: {1}]');
  });

  it('any text: placeholders survive in order, and no English letter is left outside them', () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.nat({ max: 9 }).map((n) => `{${n}}`),
      fc.constantFrom('$(check)', '$(sign-in)', '#wfs.receiver.port#'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const text = pieces.join(' ');
        const pseudo = pseudoLocalize(text);
        assert.deepEqual(placeholders(pseudo), placeholders(text));
        assert.equal(plainLetters(pseudo), '');
        assert.ok(pseudo.startsWith('[') && pseudo.endsWith(']'));
      }),
      { numRuns: 200, seed: 1 },
    );
  });

  it('is generated at test time from the English bundles: every entry changed, placeholders kept', () => {
    const { nls, bundle } = writePseudoLocale(ROOT);
    const english = JSON.parse(readFileSync(join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
    assert.deepEqual(Object.keys(nls).sort(), Object.keys(english).sort());
    assert.ok(Object.keys(bundle).length > 200, `${Object.keys(bundle).length} bundle messages`);
    for (const [key, text] of Object.entries(bundle)) {
      assert.deepEqual(placeholders(text), placeholders(key), key);
      assert.equal(plainLetters(text), '', key);
    }
  });
});

describe('l10n: finding English of ours on a pseudo-locale screen', () => {
  const ours = new Set(['signed', 'out', 'receiver', 'webhook', 'verified']);
  it('reports our words left unaccented, not the values the screen quotes nor accented words', () => {
    assert.deepEqual(englishLeaks(`${pseudoLocalize('{0}: signed out')} Sandbox`, ours, ['Sandbox']), []);
    assert.deepEqual(englishLeaks('Sandbox: signed out', ours, ['Sandbox']), ['signed', 'out']);
    assert.deepEqual(englishLeaks('[Ŵéƀĥôôķ] http://127.0.0.1:3000/webhooks verified', ours), ['verified']);
    assert.deepEqual(englishLeaks('$(radio-tower) Receiver', ours), ['Receiver']);
    assert.deepEqual(englishLeaks('[Çôñƒîĝûŕé]wfs.receiver.webhook', ours), [], 'a setting id is a name');
    assert.deepEqual(englishLeaks('[Ţĥé ţôķéñ îš ŕéàď ƒŕôɱ $WFS_WEBHOOK_TOKEN]', ours), [], 'a variable is a name');
    assert.deepEqual(englishLeaks('[çûŕĺ.éẋé; ţĥé ţôķéñ îš %WFS_WEBHOOK_TOKEN%] $env:WFS_X', ours), []);
    assert.deepEqual(englishLeaks('triggeredAt', ours), [], "a camelCase field is the protocol's name");
    assert.deepEqual(englishLeaks('x-webhook-id', ours), [], 'a header name is a name');
    assert.deepEqual(
      englishLeaks('✓ [A verified webhookId — éẋþéçţéď 200]', ours, ['A verified webhookId']),
      [],
      'a quoted value is taken out whole, before any name inside it',
    );
    assert.deepEqual(englishLeaks('host', ours, ['host']), [], 'a text that is a value whole is data');
    assert.deepEqual(englishLeaks('host verified', ours, ['host']), ['verified'], 'the rest of a text still counts');
  });

  it('takes its words from our English bundles', () => {
    const words = ourEnglishWords(ROOT);
    assert.ok(words.has('receiver') && words.has('verified'), 'words of messages');
    assert.ok(!words.has('beaker'), 'codicon names are not words');
  });
});
