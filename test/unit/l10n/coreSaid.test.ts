// Core's words for people (core/presentation/said.ts): each `said('…')` message is a literal, exported into the
// extension's l10n bundle by the build, worded in English for the CLI and through the bundle in the extension.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import ts from 'typescript';
import {
  english,
  errorWorded,
  said,
  SaidError,
  saidsLeftOut,
  withoutSaids,
  worded,
  type Wording,
} from '../../../src/core/presentation/said';
import { checkWorded, passedCheck, refusedChecks, StepFailed } from '../../../src/core/webhooks/verificationSteps';
import { applyOverrides, parseOverrides } from '../../../src/core/fixtures/eventOverrides';
import { compileTopicPattern } from '../../../src/core/patterns/topicPattern';
import { plainLetters, pseudoLocalize } from './pseudoLocale';

const ROOT = join(__dirname, '../../../..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Each said( call in core: its file, line, and literal message (undefined when it is not a literal). */
function saidCalls(): { at: string; message?: string }[] {
  return tsFiles(join(ROOT, 'src/core')).flatMap((f) => {
    const sf = ts.createSourceFile(f, readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const calls: { at: string; message?: string }[] = [];
    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'said') {
        const first = n.arguments[0];
        calls.push({
          at: `${relative(ROOT, f)}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`,
          message: first && ts.isStringLiteral(first) ? first.text : undefined,
        });
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
    return calls;
  });
}

/** A wording that looks messages up in a bundle, as vscode.l10n.t does, and fills in the values. */
const fromBundle =
  (bundle: Record<string, string>): Wording =>
  (message, ...values) =>
    (bundle[message] ?? message).replace(/\{(\d+)\}/g, (w, i: string) => String(values[Number(i)] ?? w));

describe("l10n: core's words (said) reach the extension's bundle", () => {
  const calls = saidCalls();

  it('every said() in src/core has a literal message', () => {
    assert.ok(calls.length > 40, `${calls.length} calls found`);
    assert.deepEqual(
      calls.filter((c) => c.message === undefined).map((c) => c.at),
      [],
      "write said('… {0} …', value): the l10n export reads literals",
    );
  });

  it("every said() message is a key of l10n/bundle.l10n.json (the build's export)", () => {
    const bundle = JSON.parse(readFileSync(join(ROOT, 'l10n/bundle.l10n.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(
      calls.filter((c) => c.message !== undefined && !(c.message in bundle)).map((c) => `${c.at} ${c.message}`),
      [],
    );
  });

  it('a refusal worded through the pseudo bundle has no English of ours: nested step names too', () => {
    const bundle = JSON.parse(readFileSync(join(ROOT, 'l10n/bundle.l10n.json'), 'utf8')) as Record<string, string>;
    const pseudo = Object.fromEntries(Object.keys(bundle).map((k) => [k, pseudoLocalize(k)]));
    const checks = refusedChecks(new StepFailed(1, said('no Authorization header')));
    const shown = checks.map((c) => checkWorded(c, fromBundle(pseudo)));
    assert.equal(shown[1]!.name, pseudoLocalize('decision'));
    assert.equal(plainLetters(shown[1]!.detail), '', shown[1]!.detail);
    assert.equal(plainLetters(shown[0]!.detail), '', shown[0]!.detail);
    // English, as the CLI prints it, is the detail kept beside it.
    assert.equal(checks[1]!.detail, 'refused with 403: step 1 (bearer token) failed');
    assert.equal(checkWorded(checks[1]!).detail, checks[1]!.detail);
  });

  it('a passed check keeps no Said (every verified delivery writes seven): its words are read back from its English', () => {
    const bundle = JSON.parse(readFileSync(join(ROOT, 'l10n/bundle.l10n.json'), 'utf8')) as Record<string, string>;
    const pseudo = fromBundle(Object.fromEntries(Object.keys(bundle).map((k) => [k, pseudoLocalize(k)])));
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
        fc.webUrl(),
        (iss, kid, jwksUrl) => {
          const issuer = { issuer: iss, jwksUrl, audience: 'a' };
          for (let step = 1; step <= 7; step++) {
            const c = passedCheck(step, issuer, kid);
            assert.equal(c.said, undefined);
            // English back as it was, and through the bundle nothing of ours left once the values are out.
            assert.equal(checkWorded(c).detail, c.detail);
            let shown = checkWorded(c, pseudo).detail;
            for (const v of [jwksUrl, iss, kid ?? ''].sort((a, b) => b.length - a.length))
              if (v) shown = shown.split(v).join('');
            assert.equal(plainLetters(shown), '', shown);
            assert.notEqual(checkWorded(c, pseudo).detail, c.detail);
          }
        },
      ),
      { numRuns: 100, seed: 1 },
    );
  });

  it('a check without a Said (an older record) shows its English detail', () => {
    const c = { step: 4, name: 'signature (RS256)', ok: false, detail: 'old words' };
    assert.deepEqual(checkWorded(c, fromBundle({ 'signature (RS256)': 'Signatur' })), {
      name: 'Signatur',
      detail: 'old words',
    });
    // Not a Said (a hand-edited file): its English detail, never a throw.
    assert.equal(checkWorded({ ...c, said: { values: 3 } as never }).detail, 'old words');
  });

  it('values are data: placed as they are, never looked up or filled in again', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.integer(), (value, n) => {
        const s = said('issuer {0} is trusted ({1})', value, n);
        assert.equal(english(s), `issuer ${value} is trusted (${n})`);
        const seen: string[] = [];
        worded(s, (m, ...v) => {
          seen.push(m);
          return v.join('|');
        });
        assert.deepEqual(seen, ['issuer {0} is trusted ({1})']);
      }),
      { numRuns: 200, seed: 1 },
    );
  });

  it('an event change to a path the event lacks, and a bad topic pattern: every word of ours through the bundle', () => {
    const bundle = JSON.parse(readFileSync(join(ROOT, 'l10n/bundle.l10n.json'), 'utf8')) as Record<string, string>;
    const pseudo = fromBundle(Object.fromEntries(Object.keys(bundle).map((k) => [k, pseudoLocalize(k)])));
    const errors: unknown[] = [];
    for (const change of ['data.runid=1', 'data.items.7=1', 'data.count.x=1', 'nope=1'])
      try {
        applyOverrides('{"data":{"runId":"r","items":[1,2],"count":3}}', parseOverrides([change]));
      } catch (err) {
        errors.push(err);
      }
    try {
      compileTopicPattern('a/***');
    } catch (err) {
      errors.push(err);
    }
    assert.equal(errors.length, 5);
    for (const err of errors) {
      const english = (err as Error).message;
      const shown = errorWorded(err, pseudo);
      assert.notEqual(shown, english);
      // Values out (the paths and names given, the pattern): nothing English of ours is left.
      let rest = shown;
      for (const v of [
        'data.runid',
        'data.items.7',
        'data.count.x',
        'data.items',
        'data.count',
        'data.runId',
        'runId',
        'runid',
        '"x"',
        'count',
        'items',
        'data',
        'nope',
        'a/***',
        '***',
        '**',
        '*',
      ])
        rest = rest.split(v).join('');
      assert.equal(plainLetters(rest.replace(/--set/g, '')), '', shown);
    }
  });

  it('output whose format is a promise leaves the Saids out, and keeps a string named said (data)', () => {
    const line = {
      detail: 'key set answered 404',
      detailSaid: said('key set answered {0}', 404),
      checks: [{ step: 1, detail: 'x', said: said('no Authorization header') }],
      mismatch: { said: 'forbidden' },
      errorSaid: 'not a Said: data',
    };
    assert.deepEqual(saidsLeftOut(line), {
      detail: 'key set answered 404',
      checks: [{ step: 1, detail: 'x' }],
      mismatch: { said: 'forbidden' },
      errorSaid: 'not a Said: data',
    });
    assert.equal(JSON.stringify(line, withoutSaids).includes('message'), false);
  });

  it("an error core said is worded in the face's language; another error keeps its message", () => {
    const wording = fromBundle({ 'key set answered {0}': 'Schlüsselsatz antwortete {0}' });
    assert.equal(
      errorWorded(new SaidError(said('key set answered {0}', 404)), wording),
      'Schlüsselsatz antwortete 404',
    );
    assert.equal(new SaidError(said('key set answered {0}', 404)).message, 'key set answered 404');
    assert.equal(errorWorded(new Error('ECONNREFUSED'), wording), 'ECONNREFUSED');
  });
});
