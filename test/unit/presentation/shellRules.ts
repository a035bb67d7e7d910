// The rules by which cmd.exe, PowerShell, the Windows C runtime and curl's config reader turn text into arguments,
// written from their documentation so a Windows command can be checked on any machine:
// - the C runtime's argv (learn.microsoft.com, "Parsing C command-line arguments"; CommandLineToArgvW differs only in
//   how `""` inside quotes is read, which differs between runtimes too: every variant is here);
// - cmd.exe's line in command-line mode (SS64 and the "How does CMD.EXE parse scripts" phases): %VAR% expansion,
//   then quotes, ^ escapes and the operators & && | || ( ) < >, then !VAR! expansion when delayed expansion is on;
// - PowerShell's tokens (about_Quoting_Rules, about_Parsing) and how it builds a native program's command line:
//   Legacy (5.1, 7.0 to 7.2) and Standard (7.3 and later; "Windows" is Standard for curl.exe);
// - curl's config file (curl's manual, --config; src/tool_parsecfg.c).
// Each is small and checked against the examples its documentation gives (shellRules.test.ts).

export type QuoteVariant = 'toggle' | 'stay' | 'leave';

/** The C runtime's argv from a command line. `variant` is how `""` inside a quoted part is read: old runtimes toggle
 * twice ('toggle'), the 2008 runtime emits `"` and stays quoted ('stay'), the UCRT emits `"` and ends it ('leave'). */
export function crtArgv(line: string, variant: QuoteVariant = 'leave'): string[] {
  const argv: string[] = [];
  let i = 0;
  // argv[0], the program: up to white space outside quotes; quotes are removed and backslashes are plain.
  let program = '';
  let quoted = false;
  for (; i < line.length; i++) {
    const c = line[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === ' ' || c === '\t')) break;
    else program += c;
  }
  argv.push(program);
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (i >= line.length) break;
    let arg = '';
    quoted = false;
    for (;;) {
      let slashes = 0;
      while (line[i] === '\\') {
        slashes++;
        i++;
      }
      if (line[i] === '"') {
        arg += '\\'.repeat(Math.floor(slashes / 2));
        if (slashes % 2 === 1) {
          arg += '"';
          i++;
          continue;
        }
        if (quoted && line[i + 1] === '"' && variant !== 'toggle') {
          arg += '"';
          i += 2;
          if (variant === 'leave') quoted = false;
          continue;
        }
        quoted = !quoted;
        i++;
        continue;
      }
      arg += '\\'.repeat(slashes);
      if (i >= line.length || (!quoted && (line[i] === ' ' || line[i] === '\t'))) break;
      arg += line[i];
      i++;
    }
    argv.push(arg);
  }
  return argv;
}

export interface CmdPart {
  /** A command's text as cmd.exe hands it on (for a program: its whole command line), or an operator. */
  text?: string;
  op?: '&' | '&&' | '|' | '||' | '(' | ')' | '<' | '>' | '>>';
}

/** A line typed (or pasted) at the cmd.exe prompt, cut into commands and operators. */
export function cmdLine(line: string, env: Record<string, string>, delayedExpansion: boolean): CmdPart[] {
  // Phase 1, command-line mode: %NAME% becomes its value; an undefined name, or a lone %, stays as it is.
  const expanded = line.replace(/%([^%\r\n]+)%/g, (whole, name: string) => env[name.toUpperCase()] ?? whole);
  // Phase 2: quotes toggle; outside them ^ escapes the next character and the operators split the line.
  const parts: CmdPart[] = [];
  let text = '';
  let quoted = false;
  const flush = () => {
    if (text.trim() !== '') parts.push({ text: text.trim() });
    text = '';
  };
  for (let i = 0; i < expanded.length; i++) {
    const c = expanded[i]!;
    if (c === '\n' || c === '\r') throw new Error('cmd.exe ends a command at a line break');
    if (c === '"') {
      quoted = !quoted;
      text += c;
      continue;
    }
    if (quoted) {
      text += c;
      continue;
    }
    if (c === '^') {
      text += expanded[++i] ?? '';
      continue;
    }
    const two = expanded.slice(i, i + 2);
    if (two === '&&' || two === '||' || two === '>>') {
      flush();
      parts.push({ op: two });
      i++;
    } else if ('&|()<>'.includes(c)) {
      flush();
      parts.push({ op: c as CmdPart['op'] });
    } else text += c;
  }
  flush();
  if (!delayedExpansion) return parts;
  // Phase 5, only for a command holding `!`: !NAME! becomes its value and ^ escapes, inside quotes too.
  return parts.map((p) => {
    if (p.text === undefined || !p.text.includes('!')) return p;
    let out = '';
    const t = p.text;
    for (let i = 0; i < t.length; i++) {
      if (t[i] === '^') out += t[++i] ?? '';
      else if (t[i] === '!') {
        const end = t.indexOf('!', i + 1);
        if (end < 0) continue;
        out += env[t.slice(i + 1, end).toUpperCase()] ?? '';
        i = end;
      } else out += t[i];
    }
    return { text: out };
  });
}

export type PsToken =
  | { kind: 'word'; text: string }
  | { kind: 'single'; value: string }
  | { kind: 'double'; value: string }
  | { kind: ';' | '{' | '}' };

const PS_SINGLE = /['\u2018\u2019\u201a\u201b]/;
const PS_DOUBLE = /["\u201c\u201d\u201e]/;

/** PowerShell's tokens for a line in argument mode: bare words, 'single' and "double" quoted strings (the typographic
 * quotes are quotes too), `;`, `{` and `}`. A double-quoted string expands $env:NAME; anything else that would be
 * evaluated (`$(`, `$name`, a backtick, @ or $ in a bare word) is an error here: the commands must not hold it. */
export function psTokens(line: string, env: Record<string, string>): PsToken[] {
  const tokens: PsToken[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ' || c === '\t') {
      i++;
    } else if (c === ';' || c === '{' || c === '}') {
      tokens.push({ kind: c });
      i++;
    } else if (PS_SINGLE.test(c)) {
      let value = '';
      for (i++; ; i++) {
        if (i >= line.length) throw new Error('an unterminated single-quoted string');
        const d = line[i]!;
        if (PS_SINGLE.test(d)) {
          if (PS_SINGLE.test(line[i + 1] ?? '')) {
            value += line[i + 1];
            i++;
            continue;
          }
          i++;
          break;
        }
        value += d;
      }
      tokens.push({ kind: 'single', value });
    } else if (PS_DOUBLE.test(c)) {
      let value = '';
      for (i++; ; i++) {
        if (i >= line.length) throw new Error('an unterminated double-quoted string');
        const d = line[i]!;
        if (PS_DOUBLE.test(d)) {
          if (PS_DOUBLE.test(line[i + 1] ?? '')) throw new Error('a doubled double quote');
          i++;
          break;
        }
        if (d === '`') throw new Error('a backtick escape in a double-quoted string');
        if (d === '$') {
          const m = /^\$env:([A-Za-z_][A-Za-z0-9_]*)/.exec(line.slice(i));
          if (!m) throw new Error(`an expansion other than $env:NAME at ${line.slice(i, i + 10)}`);
          value += env[m[1]!] ?? '';
          i += m[0].length - 1;
          continue;
        }
        value += d;
      }
      tokens.push({ kind: 'double', value });
    } else {
      let text = '';
      while (i < line.length && !/[\s;{}'"\u2018-\u201e]/.test(line[i]!)) text += line[i++];
      if (!/^[A-Za-z0-9.-]+$/.test(text)) throw new Error(`a bare word PowerShell would evaluate: ${text}`);
      tokens.push({ kind: 'word', text });
    }
  }
  return tokens;
}

/** The command line PowerShell 5.1 (and 7.0 to 7.2, "Legacy") builds for a native program: an empty argument is
 * dropped; one with white space outside an even number of quotes is wrapped in quotes, with nothing escaped. */
export function legacyCommandLine(program: string, args: string[]): string {
  const needsQuotes = (s: string) => {
    let quotes = 0;
    let afterBackslash = false;
    for (const c of s) {
      if (c === '"' && !afterBackslash) quotes++;
      else if (/\s/.test(c) && quotes % 2 === 0) return true;
      afterBackslash = c === '\\';
    }
    return false;
  };
  return [program, ...args.filter((a) => a !== '').map((a) => (needsQuotes(a) ? `"${a}"` : a))].join(' ');
}

/** The command line PowerShell 7.3+ builds ("Standard", .NET's ProcessStartInfo.ArgumentList): the C runtime's own
 * quoting, with backslashes doubled before a quote and at the end of a quoted argument. */
export function standardCommandLine(program: string, args: string[]): string {
  const quote = (a: string) => {
    if (a !== '' && !/[\s"]/.test(a)) return a;
    let out = '"';
    let slashes = 0;
    for (const c of a) {
      if (c === '\\') slashes++;
      else if (c === '"') {
        out += '\\'.repeat(slashes * 2 + 1) + '"';
        slashes = 0;
      } else {
        out += '\\'.repeat(slashes) + c;
        slashes = 0;
      }
    }
    return `${out}${'\\'.repeat(slashes * 2)}"`;
  };
  return [program, ...args.map(quote)].join(' ');
}

/** curl's config file as (option, parameter) pairs, by its rules: one option a line; leading blanks skipped; a line
 * starting with # (or /, *) is a comment; the option ends at a blank, or at = or : when written without dashes; a
 * parameter in double quotes takes the escapes \\ \" \t \n \r \v (a backslash before anything else is dropped) and
 * ends at the first unescaped quote; an unquoted one ends at a blank. `text` holds one character per byte. */
export function curlConfig(text: string): [string, string | undefined][] {
  const isSpace = (c: string | undefined) => c !== undefined && ' \t\n\v\f\r'.includes(c);
  const out: [string, string | undefined][] = [];
  for (const raw of text.split('\n')) {
    let i = 0;
    while (isSpace(raw[i])) i++;
    if (i >= raw.length || '#/*\r'.includes(raw[i]!)) continue;
    const dashed = raw[i] === '-';
    const isSep = (c: string | undefined) => !dashed && (c === '=' || c === ':');
    let option = '';
    while (i < raw.length && !isSpace(raw[i]) && !isSep(raw[i])) option += raw[i++];
    while (isSpace(raw[i]) || isSep(raw[i])) i++;
    let param = '';
    if (raw[i] === '"') {
      const escapes: Record<string, string> = { t: '\t', n: '\n', r: '\r', v: '\v' };
      for (i++; i < raw.length && raw[i] !== '"'; i++) {
        if (raw[i] === '\\') {
          i++;
          if (i >= raw.length) break;
          param += escapes[raw[i]!] ?? raw[i];
        } else param += raw[i];
      }
    } else while (i < raw.length && !isSpace(raw[i])) param += raw[i++];
    out.push([option, param === '' ? undefined : param]);
  }
  return out;
}

/** The command-line spelling of a config file's long option. */
export const configOption = (name: string): string =>
  name.startsWith('-') ? name : (({ header: '-H', url: '--url' } as Record<string, string>)[name] ?? `--${name}`);
