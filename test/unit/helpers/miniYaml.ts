// A reader for the YAML the docs' examples are written in (docs/compose.yaml, docs/ci-workflow.yml), so the tests can
// run what they say: block mappings and sequences by indentation, `- key: value` items, `|` block scalars, plain,
// quoted and flow-sequence scalars, and comments. Scalars stay strings. Anything else (anchors, multi-document
// files, folded scalars, tabs) is an error, not a guess: the examples are kept inside this shape.

export type YamlValue = string | null | YamlValue[] | { [key: string]: YamlValue };

interface Line {
  indent: number;
  text: string;
  /** 1-based, for errors. */
  no: number;
}

export function parseYaml(source: string): YamlValue {
  if (source.includes('\t')) throw new Error('miniYaml: tabs are not read');
  const raw = source.split('\n');
  const lines: Line[] = raw.map((t, i) => ({ indent: t.length - t.trimStart().length, text: t.trimEnd(), no: i + 1 }));
  const reader = new Reader(lines);
  const value = reader.node(0);
  reader.skipBlank();
  if (reader.i < lines.length)
    throw new Error(`miniYaml: line ${lines[reader.i]!.no} is not read: ${lines[reader.i]!.text}`);
  return value;
}

class Reader {
  i = 0;
  constructor(private readonly lines: Line[]) {}

  /** Skips blank and comment-only lines. */
  skipBlank(): void {
    while (this.i < this.lines.length && /^\s*(#.*)?$/.test(this.lines[this.i]!.text)) this.i++;
  }

  /** The node starting at the next content line, if it is indented at least `min`. */
  node(min: number): YamlValue {
    this.skipBlank();
    const line = this.lines[this.i];
    if (!line || line.indent < min) return null;
    return isItem(line.text) ? this.sequence(line.indent) : this.mapping(line.indent);
  }

  private sequence(indent: number): YamlValue[] {
    const out: YamlValue[] = [];
    for (;;) {
      this.skipBlank();
      const line = this.lines[this.i];
      if (!line || line.indent !== indent || !isItem(line.text)) return out;
      const rest = line.text.slice(indent + 1).trimStart();
      if (rest === '') {
        this.i++;
        out.push(this.node(indent + 1));
      } else if (keyOf(rest) !== undefined) {
        // `- key: value`: a mapping whose first key sits where the dash's text starts.
        const at = line.text.length - rest.length;
        this.lines[this.i] = { ...line, indent: at, text: ' '.repeat(at) + rest };
        out.push(this.mapping(at));
      } else {
        this.i++;
        out.push(scalar(rest, line.no));
      }
    }
  }

  private mapping(indent: number): { [key: string]: YamlValue } {
    const out: { [key: string]: YamlValue } = {};
    for (;;) {
      this.skipBlank();
      const line = this.lines[this.i];
      if (!line || line.indent !== indent || isItem(line.text)) return out;
      const text = line.text.slice(indent);
      const key = keyOf(text);
      if (key === undefined) throw new Error(`miniYaml: line ${line.no} is not "key: value": ${line.text}`);
      if (key.name in out) throw new Error(`miniYaml: line ${line.no}: "${key.name}" twice`);
      this.i++;
      const rest = stripComment(key.rest);
      if (rest === '|' || rest === '|-') out[key.name] = this.block(indent, rest === '|-', line.no);
      else if (rest === '') out[key.name] = this.node(indent + 1);
      else out[key.name] = scalar(rest, line.no);
    }
  }

  /** A literal block: the lines indented past `indent`, as written (blank lines kept), less their common indent. */
  private block(indent: number, strip: boolean, no: number): string {
    const taken: string[] = [];
    let blockIndent: number | undefined;
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      if (line.text.trim() === '') {
        taken.push('');
        this.i++;
        continue;
      }
      if (line.indent <= indent) break;
      blockIndent ??= line.indent;
      if (line.indent < blockIndent) throw new Error(`miniYaml: line ${line.no} is less indented than its block`);
      taken.push(line.text.slice(blockIndent));
      this.i++;
    }
    if (blockIndent === undefined) throw new Error(`miniYaml: line ${no}: an empty block`);
    while (taken.length && taken[taken.length - 1] === '') taken.pop();
    return taken.join('\n') + (strip ? '' : '\n');
  }
}

function isItem(text: string): boolean {
  return /^\s*-(\s|$)/.test(text);
}

/** `key: rest` (a plain or quoted key); undefined when the text is not a mapping entry. */
function keyOf(text: string): { name: string; rest: string } | undefined {
  const m = /^("(?:[^"\\]|\\.)*"|'[^']*'|[^\s"'#:[{][^:#]*?)\s*:(\s+(.*))?$/.exec(text.trim());
  if (!m) return undefined;
  return {
    name: m[1]!.startsWith('"') || m[1]!.startsWith("'") ? (scalar(m[1]!, 0) as string) : m[1]!,
    rest: m[3] ?? '',
  };
}

/** The text before a comment (` #` outside quotes). */
function stripComment(text: string): string {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) return text.slice(0, i).trimEnd();
  }
  return text.trimEnd();
}

function scalar(text: string, no: number): YamlValue {
  const t = stripComment(text);
  if (t.startsWith('"')) return JSON.parse(t) as string;
  if (t.startsWith("'")) {
    if (!t.endsWith("'") || t.length < 2) throw new Error(`miniYaml: line ${no}: an unclosed quote`);
    return t.slice(1, -1).replace(/''/g, "'");
  }
  if (t.startsWith('[')) {
    if (!t.endsWith(']')) throw new Error(`miniYaml: line ${no}: a flow sequence on one line only`);
    const inner = t.slice(1, -1).trim();
    if (inner === '') return [];
    try {
      return JSON.parse(t) as YamlValue[];
    } catch {
      if (/["'[\]{}]/.test(inner)) throw new Error(`miniYaml: line ${no}: a flow sequence of plain words, or JSON`);
      return inner.split(',').map((s) => s.trim());
    }
  }
  if (t.startsWith('{') || t.startsWith('&') || t.startsWith('*') || t.startsWith('>'))
    throw new Error(`miniYaml: line ${no}: not read here: ${t}`);
  return t === '' || t === '~' || t === 'null' ? null : t;
}
