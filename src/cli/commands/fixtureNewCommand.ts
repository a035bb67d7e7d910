// `wfs fixture new EVENT.json`: writes a webhook fixture (NAME.webhook.json) from a plain event body, so a fixture
// never has to be written by hand. The body is kept, its webhookId and triggeredAt made placeholders (a new event at
// each send), and the headers come from the flags or the body's own fields.
import { EXIT } from '../exitCodes';
import { lstatSync, type Stats } from 'node:fs';
import { refuseFolderLinkOut, UnsafeFilePath, writeFileSafely } from '../../core/files';
import {
  applyOverrides,
  type EventFields,
  type EventOverride,
  FIXTURE_SUFFIX,
  fixtureFromEvent,
  fixturePathFor,
  fixtureText,
  parseFixture,
} from '../../core/fixtures';
import { MAX_STDIN_BYTES, readBoundedText } from '../boundedRead';
import type { CommandSpec } from '../commandSpec';
import { changeProblem, overridesOf, SET_FLAG } from '../eventOverrideFlags';
import { UsageError } from '../flags';
import { parseJsonText } from '../../core';

export const fixtureNewCommand: CommandSpec = {
  name: 'fixture new',
  synopsis:
    'fixture new EVENT.json|- [--topic T] [--sub-topic S] [--tenant-id T] [--set PATH=VALUE …] [--out FILE] [--force]',
  positionals: ['EVENT.json|-', 'the event body: a JSON file, or - for standard input (then --out is required)'],
  description: [
    `Writes a webhook fixture (NAME${FIXTURE_SUFFIX}) from a plain event body, for \`wfs send\`, the extension's`,
    "CodeLenses and CI. X-Svc-Topic, -Sub-Topic and -Tenant-Id come from the flags, else from the body's own",
    '"topic", "subTopic" and "tenantId"; the body\'s webhookId and triggeredAt become {{webhookId}} and {{triggeredAt}}, so',
    'each send is a new event. It expects a 200. Next to EVENT.json by default (orders.json → orders.webhook.json); an',
    'existing file is kept unless --force. --set changes values of the body before it is written (the headers then come',
    'from the changed body). Prints {"event":"fixture-written","file":…,"topic":…,"subTopic":…,"tenant":…}.',
  ].join('\n'),
  flags: {
    topic: { type: 'string', value: 'T', description: 'X-Svc-Topic (default: the body\'s "topic")' },
    'sub-topic': { type: 'string', value: 'S', description: 'X-Svc-Sub-Topic (default: the body\'s "subTopic")' },
    'tenant-id': { type: 'string', value: 'T', description: 'X-Svc-Tenant-Id (default: the body\'s "tenantId")' },
    out: { type: 'string', value: 'FILE', description: `where to write it (default: EVENT${FIXTURE_SUFFIX})` },
    ...SET_FLAG,
    force: { type: 'boolean', description: 'replace the file if it exists' },
  },
  exits: [
    [
      EXIT.failed,
      'the body is not JSON, a header is missing, or the file could not be written (the error line says which)',
    ],
  ],
  async run(flags, io) {
    const [source, ...extra] = flags.positionals;
    if (source === undefined) throw new UsageError('name the event body: a JSON file, or - for standard input');
    if (extra.length) throw new UsageError(`one event body at a time: "${extra[0]}" is one too many`);
    const out = flags.values.get('out') ?? (source === '-' ? undefined : fixturePathFor(source));
    if (out === undefined) throw new UsageError('--out FILE is required with - (standard input)');
    if (!out.endsWith(FIXTURE_SUFFIX))
      throw new UsageError(`--out ${out}: a fixture's name ends in ${FIXTURE_SUFFIX} (wfs send finds it by that)`);
    if (out === source) throw new UsageError(`${source} is already named as a fixture: give --out another name`);
    const force = flags.switches.has('force');
    const overrides = overridesOf(flags);
    // lstat, not exists: a link left at the name, dangling or not, is said as a link (--force does not help).
    const there = entryAt(out);
    if (there?.isSymbolicLink()) throw new UsageError(new UnsafeFilePath(out, 'link').message);
    if (there && !force) throw new UsageError(`${out} exists: add --force to replace it, or give --out another name`);
    let text: string;
    try {
      text = source === '-' ? io.readStdin() : readBoundedText(source, MAX_STDIN_BYTES);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new UsageError(
        `${source === '-' ? 'standard input' : source}: cannot read it: ${code === 'ENOENT' ? 'no such file' : (code ?? (err as Error).message)}`,
      );
    }
    const given: EventFields = {
      topic: flags.values.get('topic'),
      subTopic: flags.values.get('sub-topic'),
      tenant: flags.values.get('tenant-id'),
    };
    const event = fixtureFromEvent(changedEvent(text, overrides), given);
    if (!event.ok) {
      const p = event.problems[0]!;
      io.emit({
        event: 'error',
        kind: 'invalid-event',
        file: source,
        line: p.start.line,
        column: p.start.column,
        message: `${source === '-' ? 'standard input' : source}: ${p.message}`,
      });
      return EXIT.failed;
    }
    const f = event.fixture;
    const written = fixtureText({
      body: Buffer.from(f.bodyText, 'utf8'),
      topic: f.topic,
      subTopic: f.subTopic,
      tenant: f.tenant,
    });
    // What is written is read back as `wfs send` will read it: never a fixture that send would refuse.
    const check = parseFixture(written);
    if (!check.ok) throw new Error(`the fixture made from ${source} does not read back: ${check.problems[0]!.message}`);
    try {
      // Never through a link at `out`: a cloned repository can ship one pointing anywhere (#74).
      // Nor through a folder on the way that links out of the folder it runs in.
      await refuseFolderLinkOut(out, process.cwd());
      await writeFileSafely(out, written, { existing: force ? 'replace' : 'refuse' });
    } catch (err) {
      if (err instanceof UnsafeFilePath)
        throw new UsageError(
          err.reason === 'exists'
            ? `${out} exists: add --force to replace it, or give --out another name`
            : err.message,
        );
      throw err;
    }
    io.emit({ event: 'fixture-written', file: out, topic: f.topic, subTopic: f.subTopic, tenant: f.tenant });
    return EXIT.ok;
  },
};

/** The event's text with the --set changes made (a body that is not JSON is left to be refused as it is). */
function changedEvent(text: string, overrides: EventOverride[]): string {
  if (!overrides.length) return text;
  try {
    parseJsonText(text);
  } catch {
    return text;
  }
  try {
    return applyOverrides(text, overrides);
  } catch (err) {
    const words = changeProblem(err);
    if (words === undefined) throw err;
    throw new UsageError(`${words} No fixture was written.`);
  }
}

function entryAt(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
