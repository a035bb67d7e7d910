// The settings a user edits are documented where they edit them: every setting has a markdownDescription, counts
// and ports are integers, addresses are URIs, enums explain each value, and an environment entry admits only the
// fields the extension reads, each described, with a snippet that inserts a full example.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { localizedManifest } from '../helpers/localizedManifest';

type Schema = {
  type?: string;
  markdownDescription?: string;
  description?: string;
  format?: string;
  enum?: string[];
  enumDescriptions?: string[];
  items?: Schema;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean;
  defaultSnippets?: unknown[];
  markdownDeprecationMessage?: string;
};
// Read in English, as VS Code shows it: the descriptions live in package.nls.json.
const manifest = localizedManifest();
const props: Record<string, Schema> = Object.assign(
  {},
  ...[manifest.contributes.configuration].flat().map((c: { properties: Record<string, Schema> }) => c.properties),
);

describe('settings schema (package.json)', () => {
  it('every setting has a markdownDescription; enums describe each value', () => {
    for (const [key, s] of Object.entries(props)) {
      assert.ok(s.markdownDescription && s.markdownDescription.length > 20, `${key}: markdownDescription`);
      if (s.enum) assert.equal(s.enumDescriptions?.length, s.enum.length, `${key}: one enumDescription per value`);
    }
  });

  it('ports, minutes, seconds and MiB are integers; addresses are URIs', () => {
    for (const key of [
      'wfs.receiver.port',
      'wfs.polling.deadlineMinutes',
      'wfs.sandbox.workflowDurationSeconds',
      'wfs.receiver.publicPathCheckSeconds',
      'wfs.receiver.historyMemoryMiB',
      'wfs.receiver.historyDiskMiB',
    ])
      assert.equal(props[key]!.type, 'integer', key);
    for (const key of ['wfs.receiver.publicUrl', 'wfs.receiver.tunnelHost', 'wfs.receiver.forwardTo'])
      assert.equal(props[key]!.format, 'uri', key);
    assert.ok(!Object.values(props).some((s) => s.type === 'number'), 'no setting is a bare number');
  });

  it('an environment entry: only known fields, each described, nested entries closed too, and a full example snippet', () => {
    const env = props['wfs.environments']!;
    const item = env.items!;
    assert.equal(item.additionalProperties, false);
    for (const [field, s] of Object.entries(item.properties!))
      assert.ok(s.markdownDescription, `environment field ${field}`);
    for (const nested of ['products', 'trustedIssuers']) {
      assert.equal(item.properties![nested]!.items!.additionalProperties, false, nested);
      for (const [field, s] of Object.entries(item.properties![nested]!.items!.properties!))
        assert.ok(s.markdownDescription, `${nested}.${field}`);
    }
    assert.deepEqual(
      Object.keys(item.properties!).sort(),
      [
        'baseUrl',
        'findWorkflowsUrl',
        'name',
        'problemsBase',
        'products',
        'testWebhookUrl',
        'trustedIssuers',
        'userAlias',
        'userAliasPlacement',
      ],
      'the fields environmentConfig.ts reads',
    );
    const snippet = JSON.stringify(env.defaultSnippets);
    for (const field of ['name', 'baseUrl', 'products', 'trustedIssuers', 'jwksUrl', 'audience'])
      assert.ok(snippet.includes(`"${field}"`), `the snippet fills ${field}`);
  });

  it('the listing has what the Marketplace shows: a 128×128 PNG icon, keywords, a banner, bugs and homepage', () => {
    const png = readFileSync(join(__dirname, '../../../..', manifest.icon));
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
    assert.ok(manifest.keywords.length >= 5 && manifest.keywords.length <= 30);
    assert.ok(manifest.galleryBanner.color && manifest.bugs.url && manifest.homepage);
    assert.match(
      readFileSync(join(__dirname, '../../../../.vscodeignore'), 'utf8'),
      /^!media\/icon\.png$/m,
      'the icon ships',
    );
  });
});

describe('README, the listing', () => {
  const root = join(__dirname, '../../../..');
  const readme = readFileSync(join(root, 'README.md'), 'utf8');

  it('every relative link and image resolves to a file in the repository; none leaves it', () => {
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1]!)
      .filter((l) => !/^(https?:|#|mailto:)/.test(l));
    assert.ok(links.length >= 8, `${links.length} relative links`);
    for (const l of links) {
      assert.ok(!l.startsWith('..'), `${l} points outside the repository`);
      assert.doesNotThrow(() => readFileSync(join(root, l.split('#')[0]!)), `${l} does not exist`);
    }
  });

  it('is written for users: build, test tiers and benchmark method live in CONTRIBUTING.md and docs/', () => {
    for (const contributorOnly of ['test:electron', 'loadgen.mjs', 'enable-smoke-test-driver', '## Layout'])
      assert.ok(!readme.includes(contributorOnly), contributorOnly);
    assert.match(readme, /`npm ci && npm test`/, 'the one test command, which .ci/run runs');
  });

  it('packages with its images: vsce rewrites relative links (no --no-rewrite-relative-links), and media/readme ships', () => {
    assert.ok(!manifest.scripts.package.includes('--no-rewrite-relative-links'));
    assert.match(
      manifest.repository.url,
      /^https:\/\/github\.com\//,
      'a repository vsce can rewrite links against (a documented placeholder until the first publish)',
    );
    assert.match(readFileSync(join(root, '.vscodeignore'), 'utf8'), /^!media\/readme\/\*\*$/m);
  });
});
