// A sandbox profile's imitated and ignored entries, as VS Code's log shows them: core's Saids worded through the
// bundle, their English (wfs sandbox --profile prints it) the same as the Saids'.
import assert from 'node:assert/strict';
import { loadSandboxProfile } from '../../../src/core/sandbox/sandboxProfile';
import { english, worded } from '../../../src/core/presentation/said';
import { plainLetters } from '../l10n/pseudoLocale';
import { pseudoWording, withoutValues } from '../helpers/pseudoWording';

describe("a sandbox profile's entries in the user's words", () => {
  it('every imitated and ignored entry is worded through the bundle; the English is unchanged', () => {
    const loaded = loadSandboxProfile(
      JSON.stringify({
        format: 'wfs-sandbox-profile',
        version: 1,
        extra: 1,
        signInRefusal: { status: 401, contentType: 'application/problem+json', bodyKind: 'problem' },
        refreshRefusal: { status: 200, bodyKind: 'problem' },
        refresh: { rotatesRefreshToken: true },
        accessToken: { header: ['jku'], claims: { scope: 'string', 'bad name': 'string' }, lifetimeSeconds: 0 },
        testWebhook: { headers: ['x-a', 'bad header'], token: { header: [], claims: {} } },
        deliveryFaults: { nope: true },
      }),
    );
    assert.ok(loaded.imitatedSaid.length >= 3 && loaded.ignoredSaid.length >= 6, JSON.stringify(loaded.ignored));
    assert.deepEqual(loaded.imitated, loaded.imitatedSaid.map(english));
    assert.deepEqual(loaded.ignored, loaded.ignoredSaid.map(english));
    assert.ok(loaded.ignored.includes('"extra": not a profile entry this sandbox knows'), loaded.ignored.join('\n'));
    const wording = pseudoWording();
    const data = [
      'application/problem+json',
      'refreshRefusal',
      'signInRefusal',
      'accessToken.claims.bad name',
      'accessToken.lifetimeSeconds',
      'accessToken.header',
      'testWebhook.headers',
      'testWebhook.token',
      'deliveryFaults',
      'body_sha256',
      'problem',
      'seed, to, duplicate, reorder, delay, retryStorm, burst',
      'nope',
      'extra',
      'accessToken',
      'testWebhook',
      'scope',
      'jku',
      'x-a',
      'bad header',
      'iss',
      'aud',
      'exp',
    ];
    for (const s of [...loaded.imitatedSaid, ...loaded.ignoredSaid]) {
      const shown = worded(s, wording);
      // The delivery faults' own reason is core's too, worded by its own message when it has one.
      const rest = withoutValues(shown, ...data);
      assert.equal(plainLetters(rest).replace(/[A-Z]{2,}/g, ''), '', shown);
    }
  });
});
