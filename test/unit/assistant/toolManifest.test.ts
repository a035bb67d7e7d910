// The tools VS Code is told about (package.json) are the tools defined in core, entry for entry: a schema or a
// description changed in one place only fails here. The tools that send or start are contributed for trusted
// workspaces only, and every tool's annotations follow from what it does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ASSISTANT_TOOLS } from '../../../src/core/assistant/toolRegistry';
import { mcpTool } from '../../../src/mcp/mcpToolServer';
import { toolContributions, toolNlsEntries } from '../../../src/extension/assistant/toolManifest';

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8'));
const nls = JSON.parse(readFileSync(join(__dirname, '../../../../package.nls.json'), 'utf8'));

describe('assistant: the tool manifest', () => {
  it("package.json's languageModelTools are the core definitions (regenerate them from toolContributions())", () => {
    assert.deepEqual(manifest.contributes.languageModelTools, toolContributions());
  });

  it("the tool picker's words are package.nls.json entries, in English the core definitions' title and summary", () => {
    const entries = toolNlsEntries();
    for (const [key, text] of Object.entries(entries)) assert.equal(nls[key], text, key);
    for (const t of ASSISTANT_TOOLS) assert.equal(entries[`tool.${t.name}.displayName`], t.title);
    const ours = Object.keys(nls).filter((k) => k.startsWith('tool.'));
    assert.deepEqual(ours.sort(), Object.keys(entries).sort(), 'no tool entry is left from a removed tool');
  });

  it('sending and starting tools are offered only in a trusted workspace; reading tools everywhere', () => {
    for (const t of manifest.contributes.languageModelTools as { name: string; when?: string; tags: string[] }[]) {
      const sends = !t.tags.includes('reads');
      assert.equal(t.when, sends ? 'isWorkspaceTrusted' : undefined, t.name);
    }
  });

  it('names, schemas and annotations fit VS Code and MCP', () => {
    for (const t of ASSISTANT_TOOLS) {
      assert.match(t.name, /^wfs_[a-z_]+$/);
      assert.equal(t.inputSchema.type, 'object');
      assert.equal(t.inputSchema.additionalProperties, false, t.name);
      const a = t.annotations;
      assert.equal(a.readOnlyHint, t.effect === 'reads', `${t.name} readOnlyHint`);
      if (t.effect !== 'reads') assert.ok(t.preview, `${t.name} says what it will do before it does it`);
      assert.deepEqual(mcpTool(t).annotations, { title: t.title, ...a });
    }
    assert.equal(
      ASSISTANT_TOOLS.find((t) => t.name === 'wfs_start_billed_workflow')!.annotations.destructiveHint,
      true,
    );
    assert.equal(new Set(ASSISTANT_TOOLS.map((t) => t.name)).size, ASSISTANT_TOOLS.length);
  });

  it('the MCP server definition provider is contributed under the id the extension registers', () => {
    assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders, [
      { id: 'wfs.mcpServer', label: '%mcpServer.mcpServer.label%' },
    ]);
    assert.equal(nls['mcpServer.mcpServer.label'], 'Workflow Service (wfs mcp)');
  });
});
